/**
 * The event loop's turns, as one clock every port shares. A MessagePort's 'message' events are
 * not bounded by Node per turn: it hands out every message queued when its handler started (at
 * least 1000), so a thread posting without pause held the main thread for as long as it had
 * posted, and every other port, socket and timer waited (a flood of one-character writes delayed
 * another tag's no-op EXEC by seconds). A port that holds itself to a share of each turn
 * (thread-port.ts) reads the turn here and, once its share is spent, stops and waits here for the
 * next one. The clock ticks in the loop's check phase (`setImmediate`), only while someone reads
 * it, so an idle process schedules nothing; between two ticks the loop has polled every handle
 * once, so every port with messages gets its share in turn.
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

/** The current turn's number; reading it makes sure the clock ticks at the end of this turn. */
export function currentTurn(): number {
  if (!ticking) {
    ticking = true;
    setImmediate(tick);
  }
  return turn;
}

/** Calls `resume` once the loop has moved on to the next turn, in the order the waiters came. */
export function awaitNextTurn(resume: () => void): void {
  waiting.push(resume);
  currentTurn();
}
