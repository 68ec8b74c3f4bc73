/** The error of model resolution: a declaration in `models:` that cannot become a chat model. */

export interface ModelConfigErrorDetails {
  /** The model's name in `models:`. */
  model: string;
  /** The option concerned (`api_key`, `configuration.baseURL`, …), when there is one. */
  field?: string;
  /** What to do about it; also appended to the message, in parentheses. */
  hint?: string;
}

/**
 * A model declaration that cannot become a model. The message names the model (and the option)
 * and says what to do; it never carries a stack trace or an API key.
 */
export class ModelConfigError extends Error {
  override readonly name = "ModelConfigError";
  readonly model: string;
  readonly field: string | undefined;
  readonly hint: string | undefined;

  constructor(message: string, details: ModelConfigErrorDetails) {
    super(details.hint ? `${message} (${details.hint})` : message);
    this.model = details.model;
    this.field = details.field;
    this.hint = details.hint;
  }
}
