/**
 * Curated hosting (cloud, data-centre, CDN) autonomous systems: networks that serve machines,
 * not people at home or on the move. Kept short and checked by hand; the operator adds or
 * replaces entries with HOSTING_ASNS_FILE (one ASN a line, `-ASN` removes one, `# comments`).
 */
export const DEFAULT_HOSTING_ASNS: Record<number, string> = {
  13335: 'Cloudflare',
  14061: 'DigitalOcean',
  14618: 'Amazon AWS',
  15169: 'Google',
  16276: 'OVH',
  16509: 'Amazon AWS',
  16625: 'Akamai',
  19527: 'Google',
  20473: 'Vultr (Choopa)',
  20940: 'Akamai',
  24940: 'Hetzner',
  26496: 'GoDaddy',
  31898: 'Oracle Cloud',
  36351: 'IBM Cloud (SoftLayer)',
  37963: 'Alibaba Cloud',
  45090: 'Tencent Cloud',
  45102: 'Alibaba Cloud',
  51167: 'Contabo',
  54113: 'Fastly',
  54825: 'Equinix Metal',
  60781: 'Leaseweb',
  63949: 'Akamai Connected Cloud (Linode)',
  8075: 'Microsoft',
  8987: 'Amazon AWS',
  9009: 'M247',
  12876: 'Scaleway',
  16265: 'Leaseweb',
  132203: 'Tencent Cloud',
  396982: 'Google Cloud',
  398101: 'GoDaddy',
  47583: 'Hostinger',
  27357: 'Rackspace',
  33070: 'Rackspace',
  212238: 'Datacamp (CDN77)',
  60068: 'Datacamp (CDN77)',
};

/** The default list with the operator's file applied: `ASN` adds, `-ASN` removes, `#` comments. */
export function hostingAsns(operatorFile?: string): Set<number> {
  const set = new Set(Object.keys(DEFAULT_HOSTING_ASNS).map(Number));
  if (!operatorFile) return set;
  for (const raw of operatorFile.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const m = /^(-)?(?:AS)?(\d+)$/i.exec(line);
    if (!m) continue;
    if (m[1]) set.delete(Number(m[2]));
    else set.add(Number(m[2]));
  }
  return set;
}
