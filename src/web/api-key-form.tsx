/**
 * Shown when the server answers 401: it was started with `--api-keys` or `--auth`. The key is
 * sent as the SDK sends it (`x-api-key`) and kept for this tab only.
 */
import { useState } from "preact/hooks";
import { setApiKey } from "./api.js";

export function ApiKeyForm(props: { message: string; onKey: () => void }) {
  const [key, setKey] = useState("");
  return (
    <form
      aria-label="API key"
      class="api-key"
      onSubmit={(e) => {
        e.preventDefault();
        if (!key) return;
        setApiKey(key);
        props.onKey();
      }}
    >
      <h2>This server wants an API key</h2>
      <p role="alert">{props.message}</p>
      <div class="field">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          value={key}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
        />
        <p class="help">
          Kept for this browser tab only, and sent as the SDK sends it (x-api-key).
        </p>
      </div>
      <button type="submit" class="primary">
        Use this key
      </button>
    </form>
  );
}
