// Signing in and the member's notification settings: a login form, an account page, a settings form that saves on the server.
import { page } from './layout.js';
import { MEMBER, type SiteState } from './state.js';

export function loginForm(failed = false): string {
  return page(
    `${failed ? 'Error: ' : ''}Sign in – Northwind Outfitters`,
    `<h1>Sign in</h1>
${failed ? '<p role="alert" class="error">Error: that email and password do not match an account.</p>' : ''}
<form method="post" action="/account/login">
<p><label for="email">Email</label><br><input id="email" name="email" type="email" autocomplete="username"></p>
<p><label for="password">Password</label><br><input id="password" name="password" type="password" autocomplete="current-password"></p>
<p><input type="checkbox" id="remember" name="remember"> <label for="remember">Keep me signed in</label></p>
<p><button>Sign in</button> <a href="/account/reset">Forgot your password?</a></p>
</form>
<p>New here? <a href="/signup">Create an account</a></p>`,
  );
}

/** A session cookie for a correct email and password, or undefined. */
export function signIn(state: SiteState, form: URLSearchParams): string | undefined {
  if (form.get('email') !== MEMBER.email || form.get('password') !== MEMBER.password) return undefined;
  const sid = `s${state.signedIn.size + 1}${Math.random().toString(36).slice(2)}`;
  state.signedIn.add(sid);
  return sid;
}

const SECTIONS = ['Profile', 'Addresses', 'Orders', 'Notifications', 'Privacy', 'Payment methods'];

export function accountHome(): string {
  return page(
    'Your account – Northwind Outfitters',
    `<h1>Hello, Grace</h1>
<nav aria-label="Account">${SECTIONS.map((s) => `<a href="/account/${s.toLowerCase().replaceAll(' ', '-')}">${s}</a>`).join(' ')}</nav>
<p>Your last order shipped on 12 March. You have 2 saved addresses and 1 payment method.</p>`,
  );
}

export function notifications(state: SiteState, saved = false): string {
  const s = state.settings;
  const box = (name: string, label: string, on: boolean, disabled = false) =>
    `<p><input type="checkbox" id="${name}" name="${name}"${on ? ' checked' : ''}${disabled ? ' disabled' : ''}> <label for="${name}">${label}</label></p>`;
  return page(
    `${saved ? 'Saved: ' : ''}Notifications – Your account`,
    `<h1>Notifications</h1>
${saved ? '<p role="status">Your notification settings are saved.</p>' : ''}
<form method="post" action="/account/notifications">
<fieldset><legend>Email</legend>
${box('newsletter', 'Weekly newsletter', s.newsletter)}
${box('productUpdates', 'Product updates and offers', s.productUpdates)}
${box('securityAlerts', 'Security alerts (always on)', s.securityAlerts, true)}
</fieldset>
<p><label for="digest">Order digest</label> <select id="digest" name="digest">${['Daily', 'Weekly', 'Never'].map((d) => `<option${d === s.digest ? ' selected' : ''}>${d}</option>`).join('')}</select></p>
<p><button>Save changes</button></p>
</form>`,
  );
}

export function saveNotifications(state: SiteState, form: URLSearchParams): void {
  state.settings = {
    newsletter: form.get('newsletter') === 'on',
    productUpdates: form.get('productUpdates') === 'on',
    securityAlerts: true,
    digest: form.get('digest') ?? state.settings.digest,
  };
}
