// The image reader's process runs below normal priority (imageWorker.ts calls this first).
import { readdirSync } from 'node:fs';
import { constants, getPriority, setPriority } from 'node:os';

/**
 * Decoding a photo can wait a few milliseconds; a call from the page or a guest's message pushed to the listener
 * cannot. On a computer of two cores the reader's decoding competed with the core for them, and calls and pushes
 * waited up to 60–80 ms while photos were added (bench/RESULTS.md, photos). Below normal, not the lowest priority:
 * on a computer kept busy by other programs the reader still gets about a tenth of a core, and a 24-megapixel photo
 * is read well within the reader's deadline.
 *
 * Linux keeps a priority per thread: every thread the process has is lowered, and the threads it starts later (the
 * pool's, libvips's) inherit the priority of the thread that starts them. Elsewhere a process has one priority.
 * Answers whether the priority was lowered; where it cannot be, the reader works as before.
 */
export function readBelowNormalPriority(): boolean {
  const below = constants.priority.PRIORITY_BELOW_NORMAL;
  try {
    // Never raised: a process started lower than this (by an owner's `nice`) stays where it is.
    if (process.platform !== 'linux') {
      if (getPriority() < below) setPriority(below);
      return true;
    }
    let lowered = false;
    for (const task of readdirSync('/proc/self/task')) {
      try {
        if (getPriority(Number(task)) < below) setPriority(Number(task), below);
        lowered = true;
      } catch {
        // a thread that ended meanwhile
      }
    }
    return lowered;
  } catch {
    return false;
  }
}
