/** The run form's control that chooses what answers for the graph's models (stand-in.ts). */
import { type StandInOffer, standInLabel } from "./stand-in.js";

export function StandInChoice(props: {
  offers: readonly StandInOffer[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
}) {
  if (!props.offers.length) return null;
  const chosen = props.offers.find((o) => o.id === props.value);
  return (
    <div class="field stand-in">
      <label for="stand-in">Models answer from</label>
      <select
        id="stand-in"
        aria-describedby="stand-in-help"
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <option value="">The real provider (needs its key)</option>
        {props.offers.map((o) => (
          <option key={o.id} value={o.id}>
            {standInLabel(o)}
          </option>
        ))}
      </select>
      <p id="stand-in-help" class="help">
        {chosen
          ? chosen.kind === "scripts"
            ? "Offline: the fixture test's scripts answer for the models, in order; nothing reaches a provider."
            : "Offline: the recording answers each call the run makes as the provider did; nothing reaches a provider."
          : "Each model call goes to its provider, with the key from the environment or the spec."}
      </p>
    </div>
  );
}
