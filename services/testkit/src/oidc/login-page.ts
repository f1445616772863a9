/** A test account as the page lists it (a subset of the provider's `OidcUser`). */
export interface LoginHint {
  username: string;
  password: string;
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The fake provider's sign-in page: a plain form, like any identity provider's. */
export function loginPage(input: {
  action: string;
  users: readonly LoginHint[];
  error?: string;
}): string {
  const hint = input.users
    .map((u) => `<li><code>${escape(u.username)}</code> / <code>${escape(u.password)}</code></li>`)
    .join('');
  const abort = input.action.replace(/\/login$/, '/abort');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Fake identity provider</title><link rel="icon" href="data:,">
<style>body{font-family:sans-serif;max-width:360px;margin:40px auto;padding:0 16px}
label{display:block;margin:12px 0 4px}input{width:100%;padding:8px;box-sizing:border-box}
button{margin-top:16px;padding:8px 16px}.error{color:#b00020}</style></head>
<body><h1>Fake identity provider</h1>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}
<form method="post" action="${escape(input.action)}">
<label for="username">Username</label><input id="username" name="username" autocomplete="username">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit">Sign in</button>
</form>
<form method="post" action="${escape(abort)}"><button type="submit">Cancel</button></form>
<p>Test accounts:</p><ul>${hint}</ul>
</body></html>`;
}
