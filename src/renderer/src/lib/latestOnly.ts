/**
 * Newest answer wins. Requests for the same thing overlap (changes come in bursts, the owner clicks on), and
 * their answers can arrive in any order; an answer may only be shown if no newer request has started since.
 *
 *     const threadLoads = latestOnly();
 *     …
 *     const isNewest = threadLoads(); // a request starts
 *     const result = await api['inbox.thread']({ id });
 *     if (!isNewest()) return; // a newer request started meanwhile: its answer is the one to show
 *
 * Each call starts a request and returns the check for that request.
 *
 * A value the core's events also keep live calls it on each event too: a read's answer and an event travel apart
 * (HTTP and WebSocket in browser mode), and an event sent after the read may arrive before the read's answer, which
 * is then older than what the event showed.
 */
export function latestOnly(): () => () => boolean {
  let newest = 0;
  return () => {
    const request = ++newest;
    return () => request === newest;
  };
}
