/**
 * The renderer's Content-Security-Policy (both hosts). SECURITY: scripts only from the app itself, no eval,
 * no plugins, no framing, no form posts; connections only to the app's own origin (browser mode's calls and
 * event socket). Inline styles stay allowed because the component library sets them at run time.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
