// What a field shows after a secret was typed into it by name (--secrets): the secret, never a part of it a field kept.
import type { ToolOptions } from './define-tool.js';

/**
 * A field's value after secret `name` was typed into it, with what the field kept of the secret shown as the secret:
 * the whole value is hidden by the serializer, but a field that cut it (maxlength) keeps a part no redactor knows, so
 * the longest start of the secret found in it is hidden here and from now on (ToolOptions.hideTyped).
 */
export function withoutSecret(value: string, name: string, secret: string, options: ToolOptions): string {
  if (value.includes(secret)) return value;
  for (let length = secret.length - 1; length > 0; length -= 1) {
    const kept = secret.slice(0, length);
    const at = value.lastIndexOf(kept);
    if (at < 0) continue;
    options.hideTyped?.(name, kept);
    return `${value.slice(0, at)}${options.redact?.(secret) ?? ''}${value.slice(at + length)}`;
  }
  return value;
}
