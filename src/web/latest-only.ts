/**
 * `read`, called as often as events come, runs one at a time: a call while one runs makes one
 * more run after it (so the last event's change is read), however many calls came meanwhile.
 */
export function latestOnly(read: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      await read();
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  return () => void run();
}
