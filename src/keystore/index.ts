/** The encrypted key store behind the personal namespace (Web3 Secret Storage v3 files, lock state). */
export {
  AccountExistsError,
  DurationTooLargeError,
  KeyFileError,
  KeyStoreError,
  LockedError,
  NoKeyError,
  WrongPassphraseError,
} from "./errors";
export { DEFAULT_UNLOCK_SECONDS, KeyStore, type KeyStoreOptions, MAX_UNLOCK_SECONDS, type SkippedFile, type WalletInfo, isValidPrivateKey } from "./keystore";
export { LIGHT_SCRYPT, STANDARD_SCRYPT, type ScryptParams, decryptKey, encryptKey, keyFileName, readKeyFileHeader, scryptParams } from "./v3";
