// A circuit breaker for a server that went away: once so many attempts in a
// row could not connect at all, no request starts any more and the waits
// between retries end at once, so that a run whose server died reports what
// it did in seconds instead of retrying each remaining request in turn.
// Any answer from the server (even an error status) closes the count again.

/** Attempts in a row that could not connect before the breaker opens. */
export const BREAKER_THRESHOLD = 8;

export class ConnectBreaker {
  private inARow = 0;
  private readonly tripped = new AbortController();

  constructor(private readonly threshold: number = BREAKER_THRESHOLD) {}

  /** Aborted, with `reason` a sentence, once the breaker opens. */
  get signal(): AbortSignal {
    return this.tripped.signal;
  }

  get open(): boolean {
    return this.tripped.signal.aborted;
  }

  /** The server answered something: it is there. */
  answered(): void {
    if (!this.open) this.inARow = 0;
  }

  /** An attempt could not connect; opens the breaker at the threshold. */
  connectFailed(host: string): void {
    if (this.open || ++this.inARow < this.threshold) return;
    this.tripped.abort(`not started: ${this.inARow} connections in a row to ${host} failed, the server seems down`);
  }
}
