/**
 * The kind of network, from the IP lists the address is on, the AS number and the AS
 * organisation's name. An iCloud Private Relay egress (the relay list: Apple's published
 * ranges) is `private_relay`, whoever's AS it is in. Hosting comes from a
 * curated list of hosting ASNs (public "datacenter" lists wrongly include universities and
 * ISPs, so the list is ours and the operator can extend or replace it); the other kinds from
 * the organisation's name.
 */
import type { EvaluatedNetwork } from '../../api-types';
import type { IpListName } from '../signals/context';

export type ConnectionType = NonNullable<EvaluatedNetwork['connection_type']>;

const MOBILE =
  /\b(wireless|mobile|mobil|cellular|celular|movil|móvil|lte|5g|t-mobile|verizon wireless|at&t mobility|sprint)\b/i;
const EDUCATION =
  /\b(universit(y|ies|é|at|ät|ad|à)|college|school|academ(y|ic)|institute of technology|research and education|educational|\.edu)\b/i;
const GOVERNMENT =
  /\b(government|ministry|ministerio|federal|department of|state of|county of|city of|gouvernement|bundes)\b|\bgov\b/i;

export function connectionType(
  asn: number | undefined,
  organisation: string | undefined,
  hostingAsns: ReadonlySet<number>,
  lists: ReadonlySet<IpListName> = new Set(),
): ConnectionType | undefined {
  if (lists.has('relay')) return 'private_relay';
  if (asn !== undefined && hostingAsns.has(asn)) return 'hosting';
  if (!organisation) return asn === undefined ? undefined : 'isp';
  if (EDUCATION.test(organisation)) return 'education';
  if (GOVERNMENT.test(organisation)) return 'government';
  if (MOBILE.test(organisation)) return 'mobile';
  return 'isp';
}
