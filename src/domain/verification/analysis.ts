/**
 * The analysis port: face and document analysis sits behind this one interface, which the
 * domain owns. An engine (`src/analysis/`) reads images and reports what it found (faces,
 * embeddings, liveness, the document's fields); it decides nothing. The verdicts (flags,
 * scores, decision, document signals) are pure domain code beside this file, over these
 * findings and the project's data.
 *
 * Until an engine is installed the server wires `unavailableAnalysisEngine`
 * (`src/analysis/unavailable.ts`), so completing a session answers 503 and the session stays open.
 */
import type { DocumentTemplateType } from '../../api-types';

/** The image types a capture may be (decided by its first bytes: `sniffImage`, storage/media.ts). */
export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

export type CaptureKind = 'selfie' | 'id_front' | 'id_back';

export interface AnalysisInput {
  type: 'face-match' | 'id-check';
  /** The latest capture of each kind the session needs. */
  captures: { kind: CaptureKind; contentType: ImageType; bytes: Buffer }[];
}

/** One face as a model saw it. */
export interface FaceFindings {
  /** The face's embedding, L2-normalised, so that the dot product of two is their cosine similarity. */
  embedding: number[];
  /** How likely the face is a live person in front of the camera rather than a print, a screen or a mask, 0 to 1 (1 = live). */
  liveness: number;
  /** The estimated age in years; null when the model gives none. */
  age: number | null;
  /** The detector's confidence, 0 to 1. */
  confidence: number;
}

/** A date as read from a document, ISO `YYYY-MM-DD`; null when it was not read or is not a real date. */
export type IsoDate = string | null;

/** The fields read from a document (from its barcode or its machine-readable zone). Empty strings where a field was absent. */
export interface DocumentFields {
  firstName: string;
  lastName: string;
  dateOfBirth: IsoDate;
  dateOfExpiration: IsoDate;
  dateOfIssue: IsoDate;
  idNumber: string;
  /** A second number (e.g. an AAMVA document discriminator, an MRZ optional data field), where the document has one. */
  idNumber2: string | null;
  address: { street: string; city: string; state: string; postalCode: string; country: string };
  /** ISO 3166-1 alpha-2 code of the issuing country; null when not known. */
  countryCode: string | null;
  /** The issuing state or province (e.g. `CA`), where there is one; empty otherwise. */
  state: string;
  templateType: DocumentTemplateType;
}

/** What reading an identity document found. */
export interface DocumentFindings {
  /** The PDF417 barcode on the back: read, present but not decodable, absent, or not expected for this document. */
  barcode: 'read' | 'unreadable' | 'not_found' | 'not_applicable';
  /** Where `fields` came from; null when nothing could be read. */
  source: 'pdf417' | 'mrz' | null;
  fields: DocumentFields | null;
  /**
   * The integrity checks the source allowed and their outcome: MRZ check digits, an AAMVA
   * header and its subfile directory, the barcode's fields agreeing with each other. Empty
   * when no check could be made.
   */
  checks: { name: string; passed: boolean }[];
  /** The portrait on the document's front; null when no face was found there. */
  face: FaceFindings | null;
  /** Whether the document's four edges were found in the front image. */
  edges: 'full' | 'partial' | 'none';
}

/**
 * What an analysis found: findings (the session can be judged), a failed attempt (no face or
 * several faces in the selfie: the user may retry), or a document that cannot be processed.
 */
export type AnalysisOutcome =
  | { outcome: 'analysed'; selfie: FaceFindings; document?: DocumentFindings }
  | { outcome: 'failed_attempt'; reason: string }
  | { outcome: 'not_processable'; reason: string };

export interface AnalysisEngine {
  analyse(input: AnalysisInput): Promise<AnalysisOutcome>;
  /** Loads the models ahead of the first analysis (GET /readyz waits for it); absent: nothing to load. */
  warmUp?(): Promise<void>;
}
