import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultLossPhase, lossPacing, runLossPhase } from '../src/phases/loss';

// Node has no WebRTC: a stand-in for the two relay-only peers, whose negotiated channels hand each packet straight to
// the other end. Enough for the phase's own bookkeeping (pacing, counting, progress), not for the network.

/** Every channel made, in order: the phase makes the UDP peer's first, then the TCP peer's, and joins the pair. */
let channels: FakeChannel[] = [];

class FakeChannel extends EventTarget {
  readonly readyState = 'open';
  // Delivered at once: nothing waits in the channel, unless a test says the channel is backed up.
  bufferedAmount = 0;
  binaryType = 'blob';
  send(packet: Uint8Array): void {
    const index = channels.indexOf(this);
    const other = channels[index % 2 === 0 ? index + 1 : index - 1];
    other?.dispatchEvent(Object.assign(new Event('message'), { data: packet.slice().buffer }));
  }
}

class FakePeer {
  onicecandidate: unknown = null;
  localDescription: unknown = null;
  createDataChannel(): FakeChannel {
    const channel = new FakeChannel();
    channels.push(channel);
    return channel;
  }
  async createOffer() {
    return { type: 'offer', sdp: '' };
  }
  async createAnswer() {
    return { type: 'answer', sdp: '' };
  }
  async setLocalDescription(description: unknown) {
    this.localDescription = description;
  }
  async setRemoteDescription() {}
  async getStats() {
    return new Map();
  }
  close(): void {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  channels = [];
});

/** The loss phase through the stand-in peers, no drain; every progress report it made, in order. */
async function lossPhaseThroughFakePeers(packets: number, packetIntervalMs: number) {
  const fractions: number[] = [];
  const result = await runLossPhase({
    ...defaultLossPhase,
    packets,
    packetIntervalMs,
    drainMs: 0,
    turn: { username: 'u', credential: 'c', urls: ['turn:relay.test:3478'] },
    connectTimeoutMs: 1000,
    signal: new AbortController().signal,
    onProgress: (fraction) => fractions.push(fraction),
  });
  return { result, fractions };
}

describe('the loss phase’s progress', () => {
  it('moves while a paced phase sends its few packets (a slow link), not only every 100 packets', async () => {
    vi.stubGlobal('RTCPeerConnection', FakePeer);
    // 64 kbit/s measured: 60 packets per direction, each ~100 ms apart; shortened here, the count is what matters.
    const { packets } = lossPacing(defaultLossPhase.packets, 64_000);
    expect(packets).toBeLessThan(100);
    const { result, fractions } = await lossPhaseThroughFakePeers(packets, 1);
    expect(result.up.received).toBe(packets);
    // Both directions report along the way, and the last packet sent is the whole share.
    expect(fractions.filter((fraction) => fraction <= 0.5).length).toBeGreaterThanOrEqual(10);
    expect(fractions.filter((fraction) => fraction > 0.5).length).toBeGreaterThanOrEqual(10);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it('still reports every 100 packets at the default count', async () => {
    vi.stubGlobal('RTCPeerConnection', FakePeer);
    const { fractions } = await lossPhaseThroughFakePeers(3000, 0.05);
    expect(fractions).toHaveLength(60);
    expect(fractions[0]).toBeCloseTo(100 / 6000, 10);
  });

  it('leaves a slot empty while the channel holds unsent packets, and counts loss over the packets it sent', async () => {
    vi.stubGlobal('RTCPeerConnection', FakePeer);
    const backedUp = vi.fn();
    // The UDP peer's channel (made first) reads as backed up after its 20th packet: SCTP's window shrank on a lossy
    // path. Its later slots stay empty, and none of the packets it did send is lost.
    const send = FakeChannel.prototype.send;
    vi.spyOn(FakeChannel.prototype, 'send').mockImplementation(function (this: FakeChannel, packet: Uint8Array) {
      send.call(this, packet);
      if (channels.indexOf(this) === 0 && ++sentByUdpPeer >= 20) {
        this.bufferedAmount = 1_000_000;
        backedUp();
      }
    });
    let sentByUdpPeer = 0;
    const { result, fractions } = await lossPhaseThroughFakePeers(100, 0.05);
    expect(backedUp).toHaveBeenCalled();
    expect(result.up).toMatchObject({ sent: 20, received: 20, lossPct: 0 });
    expect(result.down).toMatchObject({ sent: 100, received: 100, lossPct: 0 });
    // Progress still runs by the slots, to the whole share.
    expect(fractions.at(-1)).toBe(1);
  });
});
