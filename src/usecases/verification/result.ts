/**
 * The result object of a verification: the engine's findings judged by the domain
 * (`src/domain/verification/`), with the project's matches (enrolled faces, documents, the
 * capture device), the capture device's signals and the comparison with the referring session.
 * Media URLs are stored unsigned and signed when the result leaves the service (each webhook
 * attempt, each verify-face / verify-id answer), so they hold 60 minutes from sending.
 */
import type { FaceMatchResult, IdCheckResult, Session, VerificationMatchType } from '../../api-types';
import { LINK_CAP, linkSearch } from '../../domain/evaluation';
import { nameKey } from '../../domain/linking';
import { byCodeUnits } from '../../domain/order';
import type { CaptureKind, DocumentFields, DocumentFindings, FaceFindings } from '../../domain/verification/analysis';
import { documentData, documentFlags, documentSignals } from '../../domain/verification/document';
import { isSamePerson } from '../../domain/verification/faces';
import { compareWithReferring, referringBooleans } from '../../domain/verification/referring';
import { verdict } from '../../domain/verification/verdict';
import type { SecretBox } from '../../security/secrets';
import type { HistoryRepository } from '../../storage/repositories/history';
import type { ListRepository } from '../../storage/repositories/lists';
import type { VerificationRecord } from '../../storage/repositories/verifications';
import type { VerificationIndex } from '../../storage/repositories/verification-index';

export interface ResultDeps {
  history: HistoryRepository;
  lists: ListRepository;
  index: VerificationIndex;
  secretBox: SecretBox;
}

/** What a successful analysis leaves to enrol, written with the terminal transition. */
export interface Enrolment {
  embedding: number[];
  numberKey?: string;
  nameKey?: string;
}

/** The keyed digests a document is matched on: its number (with its issuer) and its holder (name and date of birth). */
export function documentKeys(box: SecretBox, fields: DocumentFields | null): { numberKey?: string; nameKey?: string } {
  if (!fields) return {};
  const number = fields.idNumber.toUpperCase().replace(/[^0-9A-Z]/g, '');
  const name = nameKey(fields.firstName, fields.lastName);
  return {
    numberKey: number ? box.digest(`number|${fields.countryCode ?? ''}|${fields.state}|${number}`) : undefined,
    // A name alone links every John Smith; with the date of birth it names one person.
    nameKey: name && fields.dateOfBirth ? box.digest(`name|${name}|${fields.dateOfBirth}`) : undefined,
  };
}

export function makeResultBuilder(deps: ResultDeps) {
  /** Other accounts of the project linked to this verification, by match type. */
  async function findMatches(
    record: VerificationRecord,
    selfie: FaceFindings,
    device: Session,
    keys: { numberKey?: string; nameKey?: string },
  ) {
    const linked = new Map<string, Set<VerificationMatchType>>();
    const add = (accountId: string, type: VerificationMatchType) => {
      if (!linked.has(accountId)) linked.set(accountId, new Set());
      linked.get(accountId)!.add(type);
    };
    await deps.index.eachFace(record.projectId, record.accountId, (face) => {
      if (face.accountId && isSamePerson(selfie.embedding, face.embedding)) add(face.accountId, 'face');
    });
    const faceRepeat = linked.size > 0;

    const row = await deps.history.sessionRow(record.projectId, device.session_id);
    // The capture's address as linking follows it: the same window, shared networks left out.
    const network = row ? linkSearch([row], undefined).networks[0] : undefined;
    if (network) {
      for (const id of await deps.history.accountsOnAddress(
        record.projectId,
        network.ip,
        { from: network.ipFrom, to: network.ipTo },
        record.accountId,
        LINK_CAP,
      ))
        add(id, 'ip_address');
    }
    // The capture browser's stored id is the same browser instance (`browser`); its fingerprint
    // the same hardware (a repeat device, not a match of its own), as linking reads them.
    const sharingDevice = new Set<string>();
    if (device.device_id) {
      for (const id of await deps.history.accountsSharing(
        record.projectId,
        'browser',
        device.device_id,
        record.accountId,
        LINK_CAP,
      )) {
        add(id, 'browser');
        sharingDevice.add(id);
      }
    }
    if (row?.browserFingerprint) {
      for (const id of await deps.history.accountsSharing(
        record.projectId,
        'device',
        row.browserFingerprint,
        record.accountId,
        LINK_CAP,
      ))
        sharingDevice.add(id);
    }
    let documentRepeat = false;
    if (keys.numberKey) {
      for (const id of await deps.index.accountsWithDocument(
        record.projectId,
        'number_key',
        keys.numberKey,
        record.accountId,
        LINK_CAP,
      )) {
        add(id, 'document_number');
        documentRepeat = true;
      }
    }
    if (keys.nameKey) {
      for (const id of await deps.index.accountsWithDocument(
        record.projectId,
        'name_key',
        keys.nameKey,
        record.accountId,
        LINK_CAP,
      )) {
        add(id, 'document_name');
        documentRepeat = true;
      }
    }
    const accounts_linked = [...linked]
      .map(([account_id, types]) => ({ account_id, match_types: [...types].sort() }))
      .sort((a, b) => b.match_types.length - a.match_types.length || byCodeUnits(a.account_id, b.account_id))
      .slice(0, LINK_CAP);
    return {
      matches: { num_accounts_linked: linked.size, accounts_linked },
      repeat: { face: faceRepeat, document: documentRepeat, device: sharingDevice.size > 0 },
    };
  }

  return {
    /**
     * The result, and what to enrol. `mediaUrl(kind)` is the capture's unsigned URL; `referring`
     * the referring SDK session when there is one.
     */
    async build(input: {
      record: VerificationRecord;
      threshold: number;
      selfie: FaceFindings;
      document?: DocumentFindings;
      device: Session;
      referring?: Session;
      mediaUrl: (kind: CaptureKind) => string;
      requestId: string;
      now: Date;
    }): Promise<{ result: FaceMatchResult | IdCheckResult; enrolment: Enrolment }> {
      const { record, selfie, document, device, now } = input;
      const keys = documentKeys(deps.secretBox, document?.fields ?? null);
      const { matches, repeat } = await findMatches(record, selfie, device, keys);
      const lists = record.accountId
        ? ((await deps.lists.ofAccounts(record.projectId, [record.accountId])).get(record.accountId) ?? [])
        : [];
      const signals = device.risk_signals;
      const comparison = compareWithReferring(device, input.referring);
      const docCountry = document?.fields?.countryCode ?? null;
      const ipDocumentCountryMismatch =
        !!docCountry && !!device.location.country_code && device.location.country_code !== docCountry;
      const docSignals = document ? documentSignals(selfie, document, now) : undefined;
      const judged = verdict({
        flags: document ? documentFlags(selfie, document, now) : [],
        liveness: selfie.liveness,
        repeat,
        deviceRisk: signals.device_risk,
        ipDocumentCountryMismatch,
        lists,
        threshold: input.threshold,
      });
      const base = {
        metadata: {
          project_id: record.projectId,
          session_id: record.id,
          account_id: record.accountId ?? null,
          referring_session_id: record.referringSessionId ?? null,
          request_id: input.requestId,
          timestamp: now.toISOString(),
        },
        decision: judged.decision,
        risk_score: judged.risk_score,
        risk_flags: judged.risk_flags,
        matches,
        // The hosted page takes still images; no videos are recorded.
        video_urls: [],
      };
      // The session's device without its screen size: the result's DeviceSummary has the device fields only.
      const { screen_width: _w, screen_height: _h, ...deviceSummary } = device.device;
      const sessionData = {
        network: device.network,
        location: device.location,
        browser: device.browser,
        device: deviceSummary,
      };
      const enrolment = { embedding: selfie.embedding, ...keys };
      if (record.type === 'face-match') {
        const n = (b: boolean) => (b ? 1 : 0);
        const scores = device.risk_signal_scores;
        const result: FaceMatchResult = {
          ...base,
          lists,
          rules: judged.rules,
          device_network_signals: {
            device_risk: scores.device_risk,
            proxy: scores.proxy,
            vpn: scores.vpn,
            datacenter: scores.datacenter,
            tor: scores.tor,
            // Spoofing is a yes/no finding (the address the SDK saw differs from the request's).
            spoofed_ip: n(signals.spoofed_ip),
            recent_fraud_ip: scores.recent_fraud_ip,
            device_network_mismatch: scores.device_network_mismatch,
            location_spoofing: scores.location_spoofing,
          },
          referring_session_signals: comparison,
          photo_urls: { face: input.mediaUrl('selfie') },
          session_data: { ...sessionData, true_country_code: device.true_country_code ?? device.location.country_code },
        };
        return { result, enrolment };
      }
      if (!document || !docSignals)
        throw new Error('the analysis engine returned an ID Check without document findings');
      const result: IdCheckResult = {
        ...base,
        device_network_signals: {
          ip_document_country_mismatch: ipDocumentCountryMismatch,
          device_risk: signals.device_risk,
          proxy: signals.proxy,
          vpn: signals.vpn,
          datacenter: signals.datacenter,
          tor: signals.tor,
          spoofed_ip: signals.spoofed_ip,
          recent_fraud_ip: signals.recent_fraud_ip,
          device_network_mismatch: signals.device_network_mismatch,
        },
        referring_session_signals: referringBooleans(comparison),
        session_data: sessionData,
        document_signals: docSignals,
        document_data: documentData(document, {
          face: input.mediaUrl('selfie'),
          id_scan_front: input.mediaUrl('id_front'),
          id_scan_back: input.mediaUrl('id_back'),
        }),
      };
      return { result, enrolment };
    },
  };
}

/** Signs every media URL of a result (photo_urls, document_data.photo_urls, video_urls) with `sign`. */
export async function signResultUrls<T extends FaceMatchResult | IdCheckResult>(
  result: T,
  sign: (url: string) => Promise<string>,
): Promise<T> {
  const signAll = async <O extends Record<string, string>>(urls: O): Promise<O> =>
    Object.fromEntries(await Promise.all(Object.entries(urls).map(async ([k, v]) => [k, await sign(v)]))) as O;
  const out = { ...result, video_urls: await Promise.all(result.video_urls.map(sign)) };
  if ('photo_urls' in out && out.photo_urls) out.photo_urls = await signAll(out.photo_urls);
  if ('document_data' in out && out.document_data)
    out.document_data = { ...out.document_data, photo_urls: await signAll(out.document_data.photo_urls) };
  return out;
}
