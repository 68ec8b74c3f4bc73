/** The server's threads; one opened: its state and its checkpoints. */
export function ThreadsView(props: { thread?: string }) {
  return (
    <section aria-labelledby="threads-title">
      <h2 id="threads-title">Threads</h2>
      {props.thread ? <p>Thread {props.thread}</p> : null}
    </section>
  );
}
