export {
  startFakeSmtp,
  type CapturedMail,
  type FakeSmtp,
  type FakeSmtpOptions,
  type SmtpFaults,
  type SmtpSecurity,
} from './server.js';
/** The fake's self-signed certificate; pass it as `tls.ca` to trust the fake like a real CA. */
export { SELF_SIGNED_CERT as FAKE_SMTP_CERT } from './self-signed.js';
/** The matching private key (public on purpose), for other fakes that must serve TLS. */
export { SELF_SIGNED_KEY as FAKE_TLS_KEY } from './self-signed.js';
export { parseMime, parseAddresses, decodeWords, type Address, type MimePart } from './mime.js';
