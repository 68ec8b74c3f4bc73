/** How much a finding matters: an error fails `graphspec validate`, a warning does not (unless `--max-warnings`). */
export type Severity = "error" | "warning";
