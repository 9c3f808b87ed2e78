/**
 * The conditions the signals name in `risk_signal_details`, each with a fixed id (its index):
 * an evaluation keeps its details as these ids (domain/evaluation/receipt.ts), so the list is
 * append-only. A condition not listed is kept by its name (exact, only longer).
 */
export const CONDITION_IDS: readonly string[] = [
  'datacenter',
  'datacenter_ip_list',
  'device_network_mismatch',
  'device_risk',
  'emulator',
  'fraud_ip_list',
  'geolocation_far_from_ip',
  'hosting_asn',
  'hosting_network_residential_device',
  'impossible_travel',
  'ip_blocked_accounts',
  'ip_fake_sessions',
  'ip_many_accounts',
  'ip_reputation',
  'ip_used_by_fraud',
  'language_mismatch',
  'location_spoofing',
  'mobile_device_on_hosting_network',
  'oem_app_integrity_failed',
  'oem_device_integrity_failed',
  'private_relay',
  'proxy',
  'proxy_ip_list',
  'recent_fraud_ip',
  'rooted_device',
  'subnet_used_by_fraud',
  'timezone_far_from_ip',
  'timezone_mismatch',
  'timezone_spoofing',
  'tor',
  'tor_exit_node',
  'user_agent_platform_mismatch',
  'vpn',
  'vpn_ip_list',
  'webdriver',
  'webrtc_ip_mismatch',
];

const CODES: ReadonlyMap<string, number> = new Map(CONDITION_IDS.map((name, id) => [name, id]));

/** The condition's id, or its name when it has none. */
export const conditionCode = (name: string): number | string => CODES.get(name) ?? name;

/** The condition a kept code names. */
export const conditionName = (code: number | string): string =>
  typeof code === 'number' ? (CONDITION_IDS[code] ?? String(code)) : code;
