/**
 * A native `<dialog>` opened as a modal when it is rendered: the browser keeps focus inside it,
 * closes it on Escape and gives focus back to the button that opened it.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useId, useRef } from "preact/hooks";

export function Modal(props: { title: string; onClose: () => void; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} class="modal">
      <h3 id={titleId}>{props.title}</h3>
      {props.children}
    </dialog>
  );
}
