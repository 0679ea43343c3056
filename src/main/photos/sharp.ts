import type Sharp from 'sharp';

/**
 * sharp, loaded when a photo is first read or drawn rather than at start: its native library and its JavaScript
 * take a noticeable part of the core's start (bench/RESULTS.md, "Core start and memory") and most runs read no photo.
 */
export async function loadSharp(): Promise<typeof Sharp> {
  return (await import('sharp')).default;
}
