/**
 * Addresses the browser reveals through WebRTC: the host candidates of a peer connection with
 * no ICE servers, so no packet leaves the device. Browsers that hide local addresses behind
 * mDNS names (`….local`) reveal none, which is the common case; a VPN or proxy that leaks the
 * real address shows up here.
 */
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const IPV6 = /^[0-9a-f:]+$/i;

export function candidateAddress(candidate: string): string | undefined {
  // candidate:<foundation> <component> <protocol> <priority> <address> <port> typ <type> …
  const address = candidate.replace(/^a=/, '').split(' ')[4];
  if (!address) return undefined;
  if (IPV4.test(address)) return address;
  if (address.includes(':') && IPV6.test(address)) return address.toLowerCase();
  return undefined;
}

export function webrtcAddresses(timeoutMs = 1000): Promise<string[]> {
  return new Promise((resolve) => {
    const found = new Set<string>();
    let pc: RTCPeerConnection | undefined;
    const finish = () => {
      try {
        pc?.close();
      } catch {
        // Closing twice or after a failure is harmless.
      }
      resolve([...found].slice(0, 16));
    };
    try {
      if (typeof RTCPeerConnection !== 'function') return resolve([]);
      pc = new RTCPeerConnection({ iceServers: [] });
      pc.createDataChannel('');
      pc.onicecandidate = (event) => {
        if (!event.candidate) return finish();
        const address = candidateAddress(event.candidate.candidate);
        if (address) found.add(address);
      };
      pc.createOffer()
        .then((offer) => pc!.setLocalDescription(offer))
        .catch(finish);
      setTimeout(finish, timeoutMs);
    } catch {
      finish();
    }
  });
}
