/**
 * Scripts of the `scripted` provider: the answers of `scripted:NAME` models, in order. Which turn
 * answers a call is the run's business (script-run.ts): a run on a new thread starts at the first
 * turn, and a resume takes the turns after the ones the thread's earlier runs took. A compile keeps
 * its scripts in ScriptQueues: the turns by name, and a queue per script for a model called
 * outside any run of the graph. No LangChain here: compile can hold scripts without loading model
 * code.
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

/** How far a script has been taken: calls answered, tool call ids handed out. */
export interface ScriptPosition {
  calls: number;
  toolCallIds: number;
}

const normalized = (turns: readonly (ScriptedTurn | string)[]): ScriptedTurn[] =>
  turns.map((t) => (typeof t === "string" ? { text: t } : { ...t }));

/** One script's turns and how many were taken. */
export class ScriptQueue {
  private next: number;
  private toolCallIds: number;
  readonly turns: readonly ScriptedTurn[];

  constructor(
    readonly name: string,
    turns: readonly (ScriptedTurn | string)[],
    /** Where to start: after the turns a thread's earlier runs took. */
    start: ScriptPosition = { calls: 0, toolCallIds: 0 },
    /** Told after every call (the compile's scripts keep how far any run got). */
    private readonly onTake?: (position: ScriptPosition) => void,
  ) {
    this.turns = normalized(turns);
    this.next = start.calls;
    this.toolCallIds = start.toolCallIds;
  }

  take(): TakenTurn {
    const call = ++this.next;
    this.onTake?.(this.position);
    return { turn: this.turns[call - 1], call };
  }

  get position(): ScriptPosition {
    return { calls: this.next, toolCallIds: this.toolCallIds };
  }

  /** How many turns no call has taken yet. */
  get left(): number {
    return Math.max(0, this.turns.length - this.next);
  }

  /** `call_1`, `call_2`, … for tool calls the script gives no id. */
  toolCallId(): string {
    const id = `call_${++this.toolCallIds}`;
    this.onTake?.(this.position);
    return id;
  }
}

/**
 * The scripts of one compile (and the compiles that share them: the CLI's, a fixture test's), by
 * name: their turns, how far any run took each, and a queue per script for calls outside a run.
 */
export class ScriptQueues {
  private readonly queues = new Map<string, ScriptQueue>();
  /** The most turns any run took of each script. */
  private readonly reached = new Map<string, number>();

  /**
   * With `anyName`, a model whose script is not given gets an empty one (its first call fails,
   * saying so) instead of failing the compile: test fixtures that never reach the model need none.
   */
  constructor(
    private readonly scripts: Scripts,
    private readonly options: { anyName?: boolean } = {},
  ) {}

  /** Whether a script of this name was given (not only allowed by `anyName`). */
  given(name: string): boolean {
    return Object.hasOwn(this.scripts, name);
  }

  /** The turns of `scripted:NAME`, or undefined when no script has that name. */
  turnsOf(name: string): readonly (ScriptedTurn | string)[] | undefined {
    return Object.hasOwn(this.scripts, name)
      ? this.scripts[name]
      : this.options.anyName
        ? []
        : undefined;
  }

  /** The compile's queue of `scripted:NAME` (for calls outside any run), or undefined when no script has that name. */
  get(name: string): ScriptQueue | undefined {
    let queue = this.queues.get(name);
    const turns = this.turnsOf(name);
    if (!queue && turns) {
      queue = new ScriptQueue(name, turns, undefined, this.observer(name));
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** What a queue of `name` calls after each call: keeps the furthest any run got. */
  observer(name: string): (position: ScriptPosition) => void {
    return ({ calls }) => {
      if (calls > (this.reached.get(name) ?? 0)) this.reached.set(name, calls);
    };
  }

  /** The scripts with turns no call of any run took, and how many. */
  unused(): { name: string; left: number }[] {
    return this.names()
      .map((name) => ({
        name,
        left: Math.max(0, (this.turnsOf(name)?.length ?? 0) - (this.reached.get(name) ?? 0)),
      }))
      .filter((s) => s.left > 0);
  }

  /** The names that have a script, for error messages. */
  names(): string[] {
    return Object.keys(this.scripts);
  }
}
