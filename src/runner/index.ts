export * from './types.js';
export * from './plan.js';
export * from './clock.js';
export * from './execute.js';
export * from './run-suites.js';
export * from './warm-up.js';
