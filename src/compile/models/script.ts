/**
 * Scripts of the `scripted` provider: the answers of `scripted:NAME` models, in order. A compile
 * copies them into ScriptQueues, so every model naming one script takes its turns from one queue,
 * and two compiles given the same Scripts do not consume each other's turns. No LangChain here:
 * compile can make the queues without loading model code.
 */

/** One model answer, in order. A bare string is `{ text }`. */
export interface ScriptedTurn {
  /** The AI message's content. */
  text?: string;
  /** Tool calls the model asks for; ids `call_1`, `call_2`, … (per script) when not given. */
  tool_calls?: { name: string; args: Record<string, unknown>; id?: string }[];
  /** The answer to a structured-output call; the AI message's content is its JSON text. */
  structured?: unknown;
  /** Token usage reported for this answer. Default: about four characters a token. */
  usage?: { input_tokens: number; output_tokens: number };
  /** This call fails with this message (for `retry` and `on_error`). */
  error?: string;
}

/** Scripts by the NAME of `scripted:NAME`. */
export type Scripts = Record<string, (ScriptedTurn | string)[]>;

/** A turn taken from a queue: the turn (undefined when the script ran out) and its call number. */
export interface TakenTurn {
  turn: ScriptedTurn | undefined;
  /** 1 for the first call of this script. */
  call: number;
}

/** One script's turns and how many were taken. */
export class ScriptQueue {
  private next = 0;
  private toolCallIds = 0;
  readonly turns: readonly ScriptedTurn[];

  constructor(
    readonly name: string,
    turns: readonly (ScriptedTurn | string)[],
  ) {
    this.turns = turns.map((t) => (typeof t === "string" ? { text: t } : { ...t }));
  }

  take(): TakenTurn {
    const call = ++this.next;
    return { turn: this.turns[call - 1], call };
  }

  /** How many turns no call has taken yet. */
  get left(): number {
    return Math.max(0, this.turns.length - this.next);
  }

  /** `call_1`, `call_2`, … for tool calls the script gives no id. */
  toolCallId(): string {
    return `call_${++this.toolCallIds}`;
  }
}

/** The queues of one compile, by script name, copied from its Scripts. */
export class ScriptQueues {
  private readonly queues = new Map<string, ScriptQueue>();

  /**
   * With `anyName`, a model whose script is not given gets an empty one (its first call fails,
   * saying so) instead of failing the compile: test fixtures that never reach the model need none.
   */
  constructor(
    private readonly scripts: Scripts,
    private readonly options: { anyName?: boolean } = {},
  ) {}

  /** The queue of `scripted:NAME`, or undefined when no script has that name. */
  get(name: string): ScriptQueue | undefined {
    let queue = this.queues.get(name);
    const turns = Object.hasOwn(this.scripts, name)
      ? this.scripts[name]
      : this.options.anyName
        ? []
        : undefined;
    if (!queue && turns) {
      queue = new ScriptQueue(name, turns);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** The scripts with turns no call took, and how many. */
  unused(): { name: string; left: number }[] {
    return this.names()
      .map((name) => ({ name, left: this.get(name)!.left }))
      .filter((s) => s.left > 0);
  }

  /** The names that have a script, for error messages. */
  names(): string[] {
    return Object.keys(this.scripts);
  }
}
