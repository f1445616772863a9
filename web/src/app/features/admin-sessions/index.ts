// Public surface of the live sessions feature: the admin overview polls the same list.
export { SessionsApi } from './sessions-api';
export { PLAY_METHOD_CHIPS, liveStreams, titleLines } from './session-view';
