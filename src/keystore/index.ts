/** The encrypted key store behind the personal namespace (Web3 Secret Storage v3 files, lock state). */
export { AccountExistsError, DurationTooLargeError, KeyStoreError, LockedError, NoKeyError, WrongPassphraseError } from "./errors";
export { DEFAULT_UNLOCK_SECONDS, KeyStore, type KeyStoreOptions, MAX_UNLOCK_SECONDS } from "./keystore";
/** @lazy read through a deferred require() (src/host/lazy.ts keystoreModule; knip cannot see it) */
export { isValidPrivateKey } from "./keystore";
export { LIGHT_SCRYPT, STANDARD_SCRYPT, type ScryptParams, scryptParams } from "./v3";
