/** The run form's control that chooses what answers for the graph's models (stand-in.ts). */
import { type StandInOffer, standInLabel, type WithoutStandIn } from "./stand-in.js";

const NONE: Record<WithoutStandIn, { label: string; help: string }> = {
  provider: {
    label: "The real provider (needs its key)",
    help: "Each model call goes to its provider, with the key from the environment or the spec.",
  },
  scripts: {
    label: "The scripts graphspec dev was given (--scripts)",
    help: "Offline: the server's own scripts answer for the models; nothing reaches a provider.",
  },
  recording: {
    label: "The recording graphspec dev was given (--replay)",
    help: "Offline: the server's own recording answers for the models; nothing reaches a provider.",
  },
};

export function StandInChoice(props: {
  offers: readonly StandInOffer[];
  value: string;
  onChange: (id: string) => void;
  disabled?: boolean;
  withoutOne: WithoutStandIn;
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
        <option value="">{NONE[props.withoutOne].label}</option>
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
          : NONE[props.withoutOne].help}
      </p>
    </div>
  );
}
