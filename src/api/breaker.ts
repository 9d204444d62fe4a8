// A circuit breaker for a server that went away: once so many attempts in a
// row could not connect at all, or met a server error or an HTML error page
// (a gateway answering for a service behind it that died), no request starts
// any more and the waits between retries end at once, so that a run whose
// server died reports what it did in seconds instead of retrying each
// remaining request in turn. An answer of the API itself (a success, or an
// error it words as JSON below 500) closes the count again.

/** Attempts in a row that failed so before the breaker opens. */
export const BREAKER_THRESHOLD = 8;

export class ConnectBreaker {
  private inARow = 0;
  /**
   * The failures in a row, in the order first met:
   * `no connection`, `answered 502`, `answered 404 with an HTML page`.
   */
  private readonly kinds = new Set<string>();
  private readonly tripped = new AbortController();

  constructor(private readonly threshold: number = BREAKER_THRESHOLD) {}

  /** Aborted, with `reason` a sentence, once the breaker opens. */
  get signal(): AbortSignal {
    return this.tripped.signal;
  }

  get open(): boolean {
    return this.tripped.signal.aborted;
  }

  /** The API answered: it is there. */
  answered(): void {
    if (this.open) return;
    this.inARow = 0;
    this.kinds.clear();
  }

  /** An attempt could not connect; opens the breaker at the threshold. */
  connectFailed(host: string): void {
    this.failed(host, 'no connection');
  }

  /**
   * An answer that is not the API's, `what` in words: a server error status,
   * or an HTML page where the API answers JSON.
   */
  upstreamFailed(host: string, what: string): void {
    this.failed(host, what);
  }

  private failed(host: string, kind: string): void {
    if (this.open) return;
    this.kinds.add(kind);
    if (++this.inARow < this.threshold) return;
    const reason =
      this.kinds.size === 1 && this.kinds.has('no connection')
        ? `${this.inARow} connections in a row to ${host} failed, the server seems down`
        : `${this.inARow} requests in a row to ${host} failed (${[...this.kinds].join(', ')}), ` +
          'the server behind it seems down';
    this.tripped.abort(`not started: ${reason}`);
  }
}
