import type { Rule } from "../rule.js";
import { defaultType } from "./default-type.js";
import { endlessLoop } from "./endless-loop.js";
import { expressionSyntax } from "./expression-syntax.js";
import { expressionType } from "./expression-type.js";
import { interruptSchema } from "./interrupt-schema.js";
import { mcpLock } from "./mcp-lock.js";
import { missingEntry } from "./missing-entry.js";
import { modelSecretContext } from "./model-secret-context.js";
import { modelTemplate } from "./model-template.js";
import { nameCollision } from "./name-collision.js";
import { noPathToEnd } from "./no-path-to-end.js";
import { outputSchema } from "./output-schema.js";
import { parallelWrite } from "./parallel-write.js";
import { pathEscape } from "./path-escape.js";
import { promptFile } from "./prompt-file.js";
import { reducerType } from "./reducer-type.js";
import { reducerWrite } from "./reducer-write.js";
import { regex } from "./regex.js";
import { reservedName } from "./reserved-name.js";
import { routeDefaultLast } from "./route-default-last.js";
import { routeNoDefault } from "./route-no-default.js";
import { subgraphChannels } from "./subgraph-channels.js";
import { subgraphCycle } from "./subgraph-cycle.js";
import { subgraphErrors } from "./subgraph-errors.js";
import { toolArgs } from "./tool-args.js";
import { toolLock } from "./tool-lock.js";
import { unknownExport } from "./unknown-export.js";
import { unknownMcpServer } from "./unknown-mcp-server.js";
import { unknownModel } from "./unknown-model.js";
import { unknownModule } from "./unknown-module.js";
import { unknownNode } from "./unknown-node.js";
import { unknownProvider } from "./unknown-provider.js";
import { unknownStateKey } from "./unknown-state-key.js";
import { unknownTool } from "./unknown-tool.js";
import { unreachableNode } from "./unreachable-node.js";
import { unsafeKey } from "./unsafe-key.js";

/** Every semantic rule, in the order they run. The schema rule runs before them (validate.ts). */
export const RULES: readonly Rule[] = [
  unknownNode,
  reservedName,
  nameCollision,
  unknownStateKey,
  unknownTool,
  unknownMcpServer,
  unknownModel,
  unknownProvider,
  modelTemplate,
  modelSecretContext,
  unknownModule,
  unknownExport,
  pathEscape,
  promptFile,
  missingEntry,
  unreachableNode,
  noPathToEnd,
  endlessLoop,
  parallelWrite,
  routeNoDefault,
  routeDefaultLast,
  subgraphCycle,
  defaultType,
  reducerType,
  subgraphErrors,
  subgraphChannels,
  expressionSyntax,
  expressionType,
  reducerWrite,
  unsafeKey,
  regex,
  toolArgs,
  toolLock,
  mcpLock,
  interruptSchema,
  outputSchema,
];
