"""An `@` inside a password is no address: the value after a password word is redacted whatever
symbols it holds, while addresses (mail, ssh, git remotes, scoped packages) are kept."""

from __future__ import annotations

import pytest

from slowloop.safety.redact import redact


@pytest.mark.parametrize("text, secret", [
    ("- login: ops@shop.example\n- pw: Xq7@LmN2vR9k", "Xq7@LmN2vR9k"),
    ("il nuovo pwd del ftp è Ru8@kd!Qm2xZ, cambiato stamattina", "Ru8@kd!Qm2xZ"),
    ("das Kennwort für den Build-Agent lautet Tz4@pWq9Lm#e", "Tz4@pWq9Lm#e"),
    ("contraseña del panel: Hn3@zQ8wLp$v", "Hn3@zQ8wLp$v"),
    ("数据库密码是 Kc9@xTq2Wm7r，别发群里", "Kc9@xTq2Wm7r"),
    ("mysql -u app -p'Jd6@Vn3qPz8s' shop", "Jd6@Vn3qPz8s"),
])
def test_a_password_with_an_at_sign_is_redacted(text, secret):
    out = redact(text).text
    assert secret not in out, out


@pytest.mark.parametrize("text, keep", [
    ("ssh deploy@web1 'systemctl status api'", "deploy@web1"),
    ("write to Anna.Berg@firma.de about the outage", "Anna.Berg@firma.de"),
    ("git remote add origin git@gitlab.example.com:shop/api.git", "git@gitlab.example.com:shop/api.git"),
    ("npm i @types/node@20.11.5", "@types/node@20.11.5"),
])
def test_addresses_are_kept(text, keep):
    assert keep in redact(text).text
