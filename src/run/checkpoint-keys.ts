/** The keys graphspec adds to a run's `configurable` and, from there, to each checkpoint's metadata. */

/** The configurable key (and checkpoint metadata key) that names the spec a thread runs. */
export const GRAPH_KEY = "graphspec_graph";
/** The configurable key (and checkpoint metadata key) of the run's context, secrets left out. */
export const CONTEXT_KEY = "graphspec_context";
/** The configurable key (and checkpoint metadata key) of the model the run chose (`RunOptions.model`). */
export const MODEL_KEY = "graphspec_model";
/** The configurable key (and checkpoint metadata key) of the run's tool allowlist, kept with the thread. */
export const ALLOWED_TOOLS_KEY = "graphspec_allowed_tools";
