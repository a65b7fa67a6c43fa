/** Source of the current time, injected so tests can step it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
