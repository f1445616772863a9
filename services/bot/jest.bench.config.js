// `npm run bench -w @usher/bot` (nx target `bot:bench`): the bot's benches, not part of `npm test`.
import config from './jest.config.js';

export default {
  ...config,
  displayName: 'bot-bench',
  roots: ['<rootDir>/bench'],
  testMatch: ['<rootDir>/bench/**/*.bench.test.ts'],
  testTimeout: 600_000,
};
