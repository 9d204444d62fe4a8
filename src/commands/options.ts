// The commands that still import their options from here get them from
// src/command-options.ts, where they are declared.
export type {
  ApplyOptions,
  DoctorOptions,
  DriftOptions,
  EmulatorOptions,
  ExportOptions,
  PlanOptions,
  PreviewOptions,
  SchemaOptions,
  ValidateOptions,
} from '../command-options.js';
