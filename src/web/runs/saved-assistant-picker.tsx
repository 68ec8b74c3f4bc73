/**
 * The run form's saved assistants (LangGraph Studio's assistants): pick one of the graph's — its
 * options fill the run options, and the run is started with its id, so the server merges its
 * configuration and context under the run's own — save the run options and context as a named
 * assistant, or delete the one picked. Through the SDK's `assistants.search`, `create`, `delete`.
 */
import type { Assistant } from "@langchain/langgraph-sdk";
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
  onPick: (assistant: Assistant | undefined) => void;
  disabled: boolean;
}) {
  const [list, setList] = useState<Assistant[]>([]);
  const [name, setName] = useState("");
  const [note, setNote] = useState("");
  const [problem, setProblem] = useState<ServerProblem | undefined>(undefined);
  const [working, setWorking] = useState(false);
  const { graph, onPick } = props;

  const reload = useCallback(async () => {
    const found = await client.assistants.search({ graphId: graph, limit: 1000 });
    const saved = savedOnly(found, graph);
    setList(saved);
    return saved;
  }, [graph]);
  useEffect(() => {
    reload().catch((e) => setProblem(serverProblem(e)));
  }, [reload]);

  const chosen = list.find((a) => a.assistant_id === props.value);
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
      {chosen ? (
        <p>
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
