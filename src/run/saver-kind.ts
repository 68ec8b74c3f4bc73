/**
 * Whether a checkpointer is one of LangGraph's by class — its own or a subclass of it (a user's
 * `class TeamSaver extends SqliteSaver`) — without importing the optional packages that define
 * them: by the class names along its prototype chain.
 */
export function isSaverKind(saver: object, className: "SqliteSaver" | "PostgresSaver"): boolean {
  for (
    let p = Object.getPrototypeOf(saver);
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  )
    if (p.constructor?.name === className) return true;
  return false;
}
