/**
 * load/: open and closed load models, arrival schedules, the scenario mix, send delay and the
 * generator-bound verdict, live progress, NDJSON record streaming, the capacity search.
 */
export * from './arrival-schedule.js';
export * from './mix.js';
export * from './send-delay.js';
export * from './ndjson-writer.js';
export * from './load-stats.js';
export * from './session.js';
export * from './execute-ack.js';
export * from './open-model.js';
export * from './closed-model.js';
export * from './progress.js';
export * from './load-config.js';
export * from './load-report.js';
export * from './load-engine.js';
export * from './load-run.js';
export * from './capacity.js';
export * from './capacity-run.js';
