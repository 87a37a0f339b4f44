"""web/sdp.py on CPython (issue 32): a browser's session description squeezed for a QR code
and written back; anything that is not such a text is refused (a link is hostile input)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from web import sdp

#: Chromium 156's data-channel offer with its two mDNS host candidates (tests/e2e/test_phones.py).
OFFER = "\r\n".join([
    "v=0", "o=- 5101443021025449175 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "a=extmap-allow-mixed", "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel",
    "c=IN IP4 0.0.0.0",
    "a=candidate:1879048057 1 udp 2113937151 bea9e26c-b069-419d-ad41-7b0cb0d7a4e2.local 47239 typ host "
    "generation 0 network-cost 999",
    "a=candidate:2761506457 1 udp 2113942271 4f71a1e7-e0b8-41c0-899a-df96b68f63b4.local 57009 typ host "
    "generation 0 network-cost 999",
    "a=candidate:3 1 tcp 1518280447 192.168.1.20 9 typ host tcptype active generation 0",
    "a=candidate:4 1 udp 2122260223 192.168.1.20 50000 typ host generation 0",
    "a=candidate:5 1 udp 2122262783 fe80::1 50001 typ host generation 0",
    "a=ice-ufrag:BNj1", "a=ice-pwd:AH/uOpOdO5c4PcxekU9a5D0j", "a=ice-options:trickle",
    "a=fingerprint:sha-256 8E:C1:34:F0:F6:48:C4:B8:06:A4:F2:38:71:F5:30:EB:7B:2E:FA:16:31:27:CB:83:E3:0C:C6:23:96:"
    "A0:5C:32",
    "a=setup:actpass", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144", ""])


def test_an_offer_keeps_what_a_peer_needs_in_a_fifth_of_the_characters():
    text = sdp.squeeze(OFFER)
    assert len(text) < len(OFFER) / 3
    back = sdp.expand(text, offer=True)
    for kept in ("a=ice-ufrag:BNj1", "a=ice-pwd:AH/uOpOdO5c4PcxekU9a5D0j", "a=setup:actpass",
                 "a=fingerprint:sha-256 8E:C1:34:F0", "bea9e26c-b069-419d-ad41-7b0cb0d7a4e2.local 47239 typ host",
                 "4f71a1e7-e0b8-41c0-899a-df96b68f63b4.local 57009", "192.168.1.20 50000", "fe80::1 50001",
                 "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "a=sctp-port:5000"):
        assert kept in back, kept
    assert " 9 typ host tcptype" not in back  # TCP candidates are not kept
    assert sdp.squeeze(back) == text


def test_an_answer_is_not_an_offer():
    answer = OFFER.replace("a=setup:actpass", "a=setup:active")
    assert "a=setup:active" in sdp.expand(sdp.squeeze(answer), offer=False)
    with pytest.raises(sdp.SdpError, match="mixed up"):
        sdp.expand(sdp.squeeze(answer), offer=True)
    with pytest.raises(sdp.SdpError, match="mixed up"):
        sdp.expand(sdp.squeeze(OFFER), offer=False)


@pytest.mark.parametrize("change", [
    lambda t: t[:-5],  # cut short
    lambda t: t.replace("|", "", 1),
    lambda t: t + "|x",
    lambda t: t.rsplit("|", 1)[0] + "|",  # no candidate
    lambda t: t.rsplit("|", 1)[0] + "|4999.1.1.1:5",
    lambda t: t.rsplit("|", 1)[0] + "|x1.2.3.4:5",
    lambda t: t.rsplit("|", 1)[0] + "|41.2.3.4:70000",
    lambda t: t.rsplit("|", 1)[0] + "|61.2.3.4:5",
    lambda t: t.rsplit("|", 1)[0] + "|m" + "A" * 21 + ":5",
    lambda t: t.replace("BNj1", "BN j", 1),
    lambda t: t.replace("BNj1", "B<1>", 1),
    lambda t: ";".join([t] * 9),
])
def test_a_changed_text_is_refused(change):
    with pytest.raises(sdp.SdpError):
        sdp.expand(change(sdp.squeeze(OFFER)), offer=True)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="|;:.46mpas0123456789abcdefABC-_/+", max_size=200) | st.text(max_size=100))
def test_any_text_is_expanded_or_refused_never_anything_else(text):
    try:
        back = sdp.expand(text, offer=True)
    except sdp.SdpError as err:
        assert str(err)
    else:
        assert back.startswith("v=0\r\n") and "a=setup:actpass" in back
