/**
 * The event loop's turns, as one clock every port shares. A MessagePort's 'message' events are
 * not bounded by Node per turn: it hands out every message queued when its handler started (at
 * least 1000), so a thread posting without pause held the main thread for as long as it had
 * posted, and every other port, socket and timer waited (a flood of one-character writes delayed
 * another tag's no-op EXEC by seconds). A port that holds itself to a share of each turn
 * (thread-port.ts) reads the turn here and, once its share is spent, stops and waits here for the
 * next one. The clock ticks in the loop's check phase (`setImmediate`), at the end of a turn in
 * which a port waits for it; between two ticks the loop has polled every handle once, so every
 * port with messages gets its share in turn.
 *
 * Nobody waiting, nothing ticks: a turn that only delivered a message or two schedules nothing
 * (an immediate per such turn cost each EXEC a loop iteration of its own). A port's share then
 * counts every turn since the clock last ticked, so a port with light traffic reaches it after a
 * share's worth of messages over many turns and waits one turn it did not need: once per share,
 * never for long, and the tick that ends the wait starts every port's count anew.
 */

let turn = 0;
let ticking = false;
let waiting: (() => void)[] = [];

function tick(): void {
  ticking = false;
  turn += 1;
  const resume = waiting;
  waiting = [];
  for (const next of resume) {
    try {
      next();
    } catch {
      // A waiter's own listener guards what it does; a throw here must not skip the others.
    }
  }
}

/** The turn's number: it changes only at a tick, which ends a turn in which someone waited (above). */
export function currentTurn(): number {
  return turn;
}

/** Calls `resume` once the loop has moved on to the next turn, in the order the waiters came. */
export function awaitNextTurn(resume: () => void): void {
  waiting.push(resume);
  if (!ticking) {
    ticking = true;
    setImmediate(tick);
  }
}
