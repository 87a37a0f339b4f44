"""A WebRTC session description in as few characters as a QR code needs (issue 32).

Pure Python (tests/web/test_sdp.py). A data channel's offer or answer is about 700
characters of SDP; all a peer needs of it is the ICE credentials, the DTLS certificate's
fingerprint, the DTLS role and the host candidates (an mDNS name is a UUID: 16 bytes).
:func:`squeeze` keeps exactly those::

    <role>|<ice-ufrag>|<ice-pwd>|<fingerprint, base64url>|<candidate>;<candidate>…

with a candidate ``m<UUID, base64url>:<port>`` (``<uuid>.local``), ``4<IPv4>:<port>`` or
``6<IPv6>:<port>``; static/wire.js then deflates it and writes it base64url into the
link. :func:`expand` writes the SDP back, and refuses (:class:`SdpError`) anything that
is not such a text: a link or a phone's answer is hostile input. (No ``uuid`` import: a
phone imports this at start-up, and ``uuid`` is not in the cut standard library.)
"""

from __future__ import annotations

import base64
import ipaddress
import re

#: The DTLS roles and their letters.
ROLES = {"actpass": "p", "active": "a", "passive": "s"}
#: At most this many candidates are kept (UDP host candidates, in the browser's order).
MAX_CANDIDATES = 8
#: ICE's characters for the user fragment and password (RFC 8839 ice-char).
_ICE = re.compile(r"[A-Za-z0-9+/]{4,256}")
_CANDIDATE = re.compile(r"a=candidate:\S+ 1 udp \d+ (\S+) (\d+) typ host\b", re.IGNORECASE)
_MDNS = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.local", re.IGNORECASE)


class SdpError(ValueError):
    """Not a session description this app made; ``str()`` says so to players."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str, size: int) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]+", text):
        raise SdpError("it is cut short or changed")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:  # binascii.Error: a length no base64 text has
        raise SdpError("it is cut short or changed") from None
    if len(data) != size:
        raise SdpError("it is cut short or changed")
    return data


def _field(sdp: str, name: str) -> str:
    match = re.search(rf"^a={name}:(.*?)\s*$", sdp, re.MULTILINE)
    if match is None:
        raise SdpError(f"it has no {name}")
    return match.group(1)


def squeeze(sdp: str) -> str:
    """The compact text of a browser's SDP (see the module docstring)."""
    role = ROLES.get(_field(sdp, "setup"))
    ufrag, pwd = _field(sdp, "ice-ufrag"), _field(sdp, "ice-pwd")
    algorithm, _, hexes = _field(sdp, "fingerprint").partition(" ")
    if role is None or algorithm.lower() != "sha-256" or not _ICE.fullmatch(ufrag) or not _ICE.fullmatch(pwd):
        raise SdpError("the browser made a description this app does not know")
    fingerprint = bytes.fromhex(hexes.replace(":", ""))
    candidates = []
    for address, port in _CANDIDATE.findall(sdp):
        mdns = _MDNS.fullmatch(address)
        if mdns:
            text = "m" + _b64(bytes.fromhex(mdns.group(1).replace("-", "")))
        else:
            try:
                ip = ipaddress.ip_address(address)
            except ValueError:
                continue
            text = f"{ip.version}{ip.compressed}"
        if f"{text}:{port}" not in candidates:
            candidates.append(f"{text}:{port}")
    return "|".join([role, ufrag, pwd, _b64(fingerprint), ";".join(candidates[:MAX_CANDIDATES])])


def expand(text: str, offer: bool) -> str:
    """The SDP of a compact ``text`` (an offer, or an answer when ``offer`` is false);
    raises :class:`SdpError` for anything else."""
    parts = text.split("|") if isinstance(text, str) and len(text) <= 4_000 else []
    if len(parts) != 5:
        raise SdpError("it is cut short or changed")
    role, ufrag, pwd, fingerprint, candidates = parts
    roles = {letter: name for name, letter in ROLES.items()}
    if role not in roles or (roles[role] == "actpass") != offer:
        raise SdpError("it is not the right half of a pairing (an invitation and an answer were mixed up)")
    if not _ICE.fullmatch(ufrag) or not _ICE.fullmatch(pwd) or len(pwd) < 22:
        raise SdpError("it is cut short or changed")
    hexes = ":".join(f"{b:02X}" for b in _unb64(fingerprint, 32))
    lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0", "a=msid-semantic: WMS",
             "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"]
    found = candidates.split(";") if candidates else []
    if not 1 <= len(found) <= MAX_CANDIDATES:
        raise SdpError("it names no way to reach the other device")
    for index, candidate in enumerate(found):
        address, _, port = candidate.rpartition(":")
        if not port.isascii() or not port.isdigit() or not 1 <= int(port) <= 65535 or not address:
            raise SdpError("it is cut short or changed")
        if address[0] == "m":
            raw = _unb64(address[1:], 16).hex()
            host = f"{raw[:8]}-{raw[8:12]}-{raw[12:16]}-{raw[16:20]}-{raw[20:]}.local"
        elif address[0] in "46":
            try:
                ip = ipaddress.ip_address(address[1:])
            except ValueError:
                raise SdpError("it is cut short or changed") from None
            if str(ip.version) != address[0]:
                raise SdpError("it is cut short or changed")
            host = ip.compressed
        else:
            raise SdpError("it is cut short or changed")
        lines.append(f"a=candidate:{index + 1} 1 udp {2113937151 - index} {host} {int(port)} typ host generation 0")
    lines += [f"a=ice-ufrag:{ufrag}", f"a=ice-pwd:{pwd}", f"a=fingerprint:sha-256 {hexes}",
              f"a=setup:{roles[role]}", "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144"]
    return "\r\n".join(lines) + "\r\n"
