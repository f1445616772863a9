// oidc-provider's storage for the fake: in memory, per provider instance, expiring entries
// lazily. The package's own memory adapter works the same but warns on every start.
import type { Adapter, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  expiresAt: number;
}

/** One store per fake provider; each model (Session, AuthorizationCode, …) gets a view. */
export function memoryAdapterFactory(): (model: string) => Adapter {
  const store = new Map<string, Entry>();
  const grants = new Map<string, Set<string>>();
  return (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    const read = (k: string): AdapterPayload | undefined => {
      const entry = store.get(k);
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        store.delete(k);
        return undefined;
      }
      return entry.payload;
    };
    return {
      async upsert(id, payload, expiresIn) {
        store.set(key(id), { payload, expiresAt: Date.now() + (expiresIn ?? 3600) * 1000 });
        if (payload.grantId) {
          const set = grants.get(payload.grantId) ?? new Set<string>();
          set.add(key(id));
          grants.set(payload.grantId, set);
        }
        if (payload.uid) store.set(`${model}:uid:${payload.uid}`, store.get(key(id))!);
        if (payload.userCode) store.set(`${model}:code:${payload.userCode}`, store.get(key(id))!);
      },
      async find(id) {
        return read(key(id));
      },
      async findByUid(uid) {
        return read(`${model}:uid:${uid}`);
      },
      async findByUserCode(userCode) {
        return read(`${model}:code:${userCode}`);
      },
      async consume(id) {
        const payload = read(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const k of grants.get(grantId) ?? []) store.delete(k);
        grants.delete(grantId);
      },
    };
  };
}
