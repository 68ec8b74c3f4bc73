/** The server's threads; one opened: its state and its checkpoints. */
import { ThreadList } from "./thread-list.js";
import { ThreadPage } from "./thread-page.js";

export function ThreadsView(props: { thread?: string }) {
  if (props.thread) return <ThreadPage id={props.thread} />;
  return (
    <section aria-labelledby="threads-title">
      <h2 id="threads-title">Threads</h2>
      <ThreadList />
    </section>
  );
}
