/// <reference types="vite-plugin-pwa/client" />

interface ImportMetaEnv {
  /** A digest of openapi.yaml, written in at build time (web/vite.config.ts): saved API answers of another contract are dropped. */
  readonly VITE_API_CONTRACT: string;
}
