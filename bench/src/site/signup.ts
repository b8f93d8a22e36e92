// The sign-up form: eight fields, checked on the server, answered with the form again and an error per field (values kept) until it is right.
import { escapeHtml, page } from './layout.js';
import type { Account, SiteState } from './state.js';

const COUNTRIES: [string, string][] = [
  ['', 'Choose a country'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['GB', 'United Kingdom'],
  ['IE', 'Ireland'],
  ['US', 'United States'],
];

type Field = keyof Account | 'confirm';

function check(form: URLSearchParams, state: SiteState): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  const value = (name: string) => (form.get(name) ?? '').trim();
  if (value('fullName').length < 2) errors.fullName = 'Enter your full name';
  if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(value('email'))) errors.email = 'Enter an email address like name@example.com';
  const username = value('username');
  if (!/^[a-z0-9_]{3,20}$/.test(username)) errors.username = 'Use 3 to 20 lower-case letters, digits or _';
  else if (state.accounts.has(username)) errors.username = `The username ${username} is taken; choose another`;
  const password = form.get('password') ?? '';
  if (password.length < 10 || !/\d/.test(password)) errors.password = 'Use at least 10 characters, one of them a digit';
  if ((form.get('confirm') ?? '') !== password) errors.confirm = 'The passwords do not match';
  if (!COUNTRIES.some(([code]) => code !== '' && code === value('country'))) errors.country = 'Choose a country';
  if (!/^\+?[0-9 ]{6,20}$/.test(value('phone'))) errors.phone = 'Enter a phone number, digits only';
  if (form.get('terms') !== 'on') errors.terms = 'Accept the terms to continue';
  return errors;
}

export function signupForm(form = new URLSearchParams(), errors: Partial<Record<Field, string>> = {}): string {
  const count = Object.keys(errors).length;
  const text = (name: Field, label: string, type = 'text', autocomplete = '') => {
    const keep = type === 'password' ? '' : ` value="${escapeHtml(form.get(name) ?? '')}"`;
    const error = errors[name] ? `<span class="error" id="${name}-error">Error: ${escapeHtml(errors[name] ?? '')}</span>` : '';
    return `<p><label for="${name}">${label}</label><br><input id="${name}" name="${name}" type="${type}"${keep} autocomplete="${autocomplete}"${error ? ` aria-describedby="${name}-error"` : ''}> ${error}</p>`;
  };
  return page(
    `${count > 0 ? `Error: ${count} ${count === 1 ? 'problem' : 'problems'} – ` : ''}Create your account – Northwind Outfitters`,
    `<h1>Create your account</h1>
<p>Members get free returns, early access to sales and order tracking. Fields are required.</p>
${
  count > 0
    ? `<div role="alert"><h2>There is a problem</h2><ul>${Object.values(errors)
        .map((e) => `<li>${escapeHtml(e)}</li>`)
        .join('')}</ul></div>`
    : ''
}
<form method="post" action="/signup" novalidate>
${text('fullName', 'Full name', 'text', 'name')}
${text('email', 'Email', 'email', 'email')}
${text('username', 'Username', 'text', 'username')}
${text('password', 'New password', 'password', 'new-password')}
${text('confirm', 'Confirm password', 'password', 'new-password')}
<p><label for="country">Country</label><br><select id="country" name="country">${COUNTRIES.map(([code, name]) => `<option value="${code}"${form.get('country') === code ? ' selected' : ''}>${name}</option>`).join('')}</select>${errors.country ? ` <span class="error">Error: ${errors.country}</span>` : ''}</p>
${text('phone', 'Phone', 'tel', 'tel')}
<p><input type="checkbox" id="terms" name="terms"${form.get('terms') === 'on' ? ' checked' : ''}> <label for="terms">I accept the terms and the privacy policy</label>${errors.terms ? ` <span class="error">Error: ${errors.terms}</span>` : ''}</p>
<p><button>Create account</button></p>
</form>`,
  );
}

/** Creates the account, or answers the form again with its errors. */
export function submitSignup(state: SiteState, form: URLSearchParams): { created: Account } | { page: string } {
  const errors = check(form, state);
  if (Object.keys(errors).length > 0) return { page: signupForm(form, errors) };
  const value = (name: string) => (form.get(name) ?? '').trim();
  const account: Account = {
    fullName: value('fullName'),
    email: value('email'),
    username: value('username'),
    password: form.get('password') ?? '',
    country: value('country'),
    phone: value('phone'),
    terms: true,
  };
  state.accounts.set(account.username, account);
  return { created: account };
}

export function welcome(account: Account): string {
  return page(
    `Welcome, ${account.fullName} – Northwind Outfitters`,
    `<h1>Welcome, ${escapeHtml(account.fullName)}</h1><p>Your account ${escapeHtml(account.username)} is ready. We sent a confirmation to ${escapeHtml(account.email)}.</p><p><a href="/shop">Start shopping</a></p>`,
  );
}
