// `npm run gen`, after api-spec/: writes supabase/seed.sql from local/demo-content.ts (local/demo-seed.ts).
import { writeFileSync } from 'node:fs';
import { demoSeedSql, SEED_PATH } from '../local/demo-seed.ts';

writeFileSync(SEED_PATH, demoSeedSql());
