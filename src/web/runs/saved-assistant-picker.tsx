/**
 * The run form's saved assistants (LangGraph Studio's assistants): pick one of the graph's — its
 * options fill the run options, and the run is started with its id, so the server merges its
 * configuration and context under the run's own — save the run options and context as a named
 * assistant, save them as a new version of the one picked, choose which of its versions runs, or
 * delete it. Through the SDK's `assistants.search`, `create`, `update`, `getVersions`,
 * `setLatest`, `delete`. The pick is kept for the tab (saved-assistant-memory.ts).
 */
import type { Assistant, AssistantVersion } from "@langchain/langgraph-sdk";
import { useCallback, useEffect, useState } from "preact/hooks";
import { client } from "../api.js";
import type { RunChoices, RunOptions } from "./run-options.js";
import { assistantConfig, savedOnly } from "./saved-assistant.js";
import { type ServerProblem, serverProblem } from "./server-problem.js";

export function SavedAssistantPicker(props: {
  graph: string;
  choices: RunChoices;
  options: RunOptions;
  /** The context form's value: saved with the assistant. */
  context: Record<string, unknown>;
  /** The saved assistant picked ("": the graph's own). */
  value: string;
  /** A person's pick, a save or a version chosen: the run options are filled from it. */
  onPick: (assistant: Assistant | undefined) => void;
  /** The list read: the assistant `value` names as it stands now (undefined: gone). */
  onRead: (assistant: Assistant | undefined) => void;
  disabled: boolean;
}) {
  const [list, setList] = useState<Assistant[]>([]);
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<ServerProblem | undefined>(undefined);
  const [working, setWorking] = useState(false);
  const [versions, setVersions] = useState<AssistantVersion[]>([]);
  const { graph, onPick, onRead, value } = props;

  const reload = useCallback(async () => {
    const found = await client.assistants.search({ graphId: graph, limit: 1000 });
    const saved = savedOnly(found, graph);
    setList(saved);
    return saved;
  }, [graph]);
  // The list, once: the pick kept from before a reload is found in it (or is gone).
  useEffect(() => {
    reload()
      .then((saved) => onRead(saved.find((a) => a.assistant_id === value)))
      .catch((e) => setProblem(serverProblem(e)));
  }, [reload]);

  const chosen = list.find((a) => a.assistant_id === value);
  // The picked assistant's versions, newest first, read again when it gets a new one.
  useEffect(() => {
    if (!chosen) {
      setVersions([]);
      return;
    }
    let live = true;
    client.assistants
      .getVersions(chosen.assistant_id)
      .then((v) => live && setVersions(v))
      .catch((e) => live && setProblem(serverProblem(e)));
    return () => {
      live = false;
    };
  }, [chosen?.assistant_id, chosen?.version]);
  const act = async (what: () => Promise<void>) => {
    setWorking(true);
    setProblem(undefined);
    setNote("");
    try {
      await what();
    } catch (e) {
      setProblem(serverProblem(e));
    } finally {
      setWorking(false);
    }
  };
  const save = () =>
    act(async () => {
      const made = await client.assistants.create({
        graphId: graph,
        name: name.trim(),
        config: assistantConfig(props.options, props.choices),
        context: props.context,
      });
      await reload();
      onPick(made);
      setName("");
      setNote(`Saved ${made.name}: runs now start with it.`);
    });
  /** The form's options and context as the picked assistant's next version (`update`). */
  const saveVersion = () =>
    act(async () => {
      if (!chosen) return;
      // The context replaces the assistant's: what the form leaves empty keeps the assistant's
      // value (a secret given back as `***` keeps the secret: docs/server.md).
      const made = await client.assistants.update(chosen.assistant_id, {
        config: assistantConfig(props.options, props.choices),
        context: { ...(chosen.context ?? {}), ...props.context },
      });
      await reload();
      onPick(made);
      setNote(`Saved version ${made.version} of ${made.name}: runs now use it.`);
    });
  /** Makes a kept version the one runs use (`setLatest`); its options fill the run options. */
  const chooseVersion = (version: number) =>
    act(async () => {
      if (!chosen) return;
      const made = await client.assistants.setLatest(chosen.assistant_id, version);
      await reload();
      onPick(made);
      setNote(`${made.name} runs with version ${version} now.`);
    });
  const remove = () =>
    act(async () => {
      if (!chosen) return;
      await client.assistants.delete(chosen.assistant_id);
      await reload();
      onPick(undefined);
      setNote(`Deleted ${chosen.name}.`);
    });
  const disabled = props.disabled || working;
  const contextShown = chosen ? Object.entries(chosen.context ?? {}) : [];
  return (
    <fieldset class="saved-assistants">
      <legend>Assistant</legend>
      <div class="field">
        <label for="saved-assistant">Run with</label>
        <select
          id="saved-assistant"
          aria-describedby="saved-assistant-help"
          value={props.value}
          disabled={disabled}
          onChange={(e) =>
            onPick(list.find((a) => a.assistant_id === e.currentTarget.value) ?? undefined)
          }
        >
          <option value="">The graph's own assistant</option>
          {list.map((a) => (
            <option key={a.assistant_id} value={a.assistant_id}>
              {a.name} (version {a.version})
            </option>
          ))}
        </select>
        <p id="saved-assistant-help" class="help">
          A saved assistant's options fill the run options; the run starts with its id, so its
          context applies too, under what the forms give.
        </p>
      </div>
      {contextShown.length ? (
        <p class="help">
          Its context:{" "}
          {contextShown.map(([k, v], i) => (
            <span key={k}>
              {i ? ", " : ""}
              <code>{k}</code> = <code>{JSON.stringify(v)}</code>
            </span>
          ))}
        </p>
      ) : null}
      {chosen && versions.length ? (
        <div class="field">
          <label for="saved-assistant-version">Version of {chosen.name}</label>
          <select
            id="saved-assistant-version"
            aria-describedby="saved-assistant-version-help"
            value={String(chosen.version)}
            disabled={disabled}
            onChange={(e) => chooseVersion(Number(e.currentTarget.value))}
          >
            {versions.map((v) => (
              <option key={v.version} value={String(v.version)}>
                {versionLabel(v)}
              </option>
            ))}
          </select>
          <p id="saved-assistant-version-help" class="help">
            The version runs use. Choosing an older one makes it the one runs use again; its options
            fill the run options.
          </p>
        </div>
      ) : null}
      {chosen ? (
        <p class="actions">
          <button type="button" disabled={disabled} onClick={saveVersion}>
            Save as a new version of {chosen.name}
          </button>{" "}
          <button type="button" class="danger" disabled={disabled} onClick={remove}>
            Delete {chosen.name}
          </button>
        </p>
      ) : null}
      <div class="field">
        <label for="saved-assistant-name">Save the run options and context as</label>
        <input
          id="saved-assistant-name"
          type="text"
          value={name}
          maxLength={200}
          disabled={disabled}
          onInput={(e) => setName(e.currentTarget.value)}
        />
      </div>
      <p>
        <button type="button" disabled={disabled || !name.trim()} onClick={save}>
          Save assistant
        </button>
      </p>
      <p class="help" aria-live="polite">
        {note}
      </p>
      {problem ? (
        <div role="alert" class="form-problem">
          <p>
            {problem.message}
            {problem.code ? ` [${problem.code}]` : null}
          </p>
          {problem.hint ? <p class="help">{problem.hint}</p> : null}
        </div>
      ) : null}
    </fieldset>
  );
}

/** A version as the select names it: its number, then what it sets (model, tools, limit). */
function versionLabel(v: AssistantVersion): string {
  const config = (v.config ?? {}) as {
    configurable?: Record<string, unknown>;
    recursion_limit?: unknown;
  };
  const c = config.configurable ?? {};
  const parts = [
    typeof c.model === "string" ? `model ${c.model}` : undefined,
    Array.isArray(c.toolIds) ? `tools ${c.toolIds.join(", ") || "none"}` : undefined,
    typeof config.recursion_limit === "number" ? `limit ${config.recursion_limit}` : undefined,
  ].filter(Boolean);
  return `Version ${v.version}${parts.length ? `: ${parts.join("; ")}` : ""}`;
}
