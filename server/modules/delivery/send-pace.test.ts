import { describe, expect, it } from 'vitest';
import { SendPace } from './send-pace.ts';

/** The most of `times` in any second (a half-open 1000 ms window). */
function mostInASecond(times: number[]) {
  return Math.max(
    ...times.map((start) => times.filter((t) => t >= start && t < start + 1000).length),
  );
}

describe('SendPace', () => {
  it('posts nothing before its slot', async () => {
    const pace = new SendPace();
    const slot = Date.now() + 120;
    await pace.when(slot, 1000);
    expect(Date.now()).toBeGreaterThanOrEqual(slot);
  });

  it('never lets more than the rate go in any second when many slots have come at once', async () => {
    const pace = new SendPace();
    const posted: number[] = [];
    const due = Date.now();
    // The instants the pace counted: a busy machine may run the callbacks after them a few
    // milliseconds apart, which is the event loop's delay, not the pace's.
    await Promise.all(
      Array.from({ length: 45 }, () => pace.when(due, 20).then((at) => posted.push(at))),
    );
    expect(posted).toHaveLength(45);
    expect(mostInASecond(posted)).toBe(20);
    // The second and third seconds' posts waited for the first ones to leave the window.
    expect(Math.max(...posted) - Math.min(...posted)).toBeGreaterThanOrEqual(2000);
  });
});
