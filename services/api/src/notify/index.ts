export {
  Notifier,
  type NotifierDeps,
  type NotifyOptions,
  type NotifyOutcome,
  type NotifyPayload,
  type NotifyResult,
} from './notifier.js';
