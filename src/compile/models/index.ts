/**
 * Chat models of `models:`: `provider:name` through LangChain's `initChatModel`, and the offline
 * `scripted` provider for tests and fixtures.
 */
export { ModelConfigError, type ModelConfigErrorDetails } from "./model-config-error.js";
export {
  ProviderRecording,
  RECORDING_VERSION,
  type RecordedCall,
  type RecordingFile,
} from "./recording.js";
export { type ModelResolveOptions, resolveModel } from "./resolve.js";
export {
  type ScriptedTurn,
  ScriptQueue,
  ScriptQueues,
  type Scripts,
  type TakenTurn,
} from "./script.js";
export { ScriptedChatModel } from "./scripted.js";
