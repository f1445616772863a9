import { defineConfig } from 'drizzle-kit';

// Generates the committed SQL migrations: `npx drizzle-kit generate --name <readable-name>`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
