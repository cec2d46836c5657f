"""The words the danger scan (:mod:`slowloop.safety.danger`) reads intent in, eight languages.

Sending (``send``, ``invia``, ``envoie``, ``schicke``, ``发送``, ``送信``…), what is secret (``api
key``, ``mot de passe``, ``Zugangsdaten``, ``密钥``…), where it goes, looking a name up (what
carries data out over DNS), and the stamp a forged approval record wears.
"""

from __future__ import annotations

__all__ = ["APPROVED_STAMP", "DEST", "DNS_ASK", "SECRET_ML", "SEND_ML"]

SEND_ML = (r"(?:send|upload|post|e-?mail|mail|share|forward|paste|exfiltrate|transmit|leak|beacon|attach|embed|"
            r"anexe|anexar|allega(?:re)?|adjunta(?:r)?|joins|joindre|hänge|"
            r"envoie[rz]?|envoyer|transmets|transmettre|t[ée]l[ée]verse[rz]?|partage[rz]?|"
            r"invia(?:re)?|manda(?:re)?|carica(?:re)?|condividi|trasmetti|"
            r"envi[ae]r?|envíe|envía|mande|carregue(?=[^\n]{0,80}?\b(?:para|pro)\s)|compartilhe|transmita|sube|subir|comparte|"
            r"transmite|sende[n]?|schicke[n]?|hochladen|lade\s+\S+\s+hoch|übertrage[n]?|teile|"
            r"back\s*(?:it\s+|them\s+)?up|sauvegarde[rz]?|respald\w*|sichere|备份|バックアップ|"
            r"发送|发到|发给|上传|传到|寄给|转发|提交到|贴到|送信|送って|送る|アップロード|転送)")
SECRET_ML = (r"(?:api[ _-]?keys?|access\s+keys?|ssh\s+keys?|private\s+keys?|tokens?|credentials?|"
              r"passwords?|secrets?|env(?:ironment)?\s+var(?:iable)?s|cookies|"
              r"cl[ée]s?\s+(?:api|ssh|priv[ée]e)|mot\s+de\s+passe|jetons?|identifiants|"
              r"chiav[ei]\s+(?:api|ssh|privat[ae])|credenziali|segreti|"
              r"chaves?\s+(?:api|ssh|privadas?)|senhas?|credenciais|segredos|"
              r"claves?\s+(?:api|ssh|privadas?)|contraseñas?|credenciales|secretos|"
              r"Schlüssel|Passw(?:ort|örter)|Zugangsdaten|Umgebungsvariablen|"
              r"variables\s+de\s+entorno|vari[áa]veis\s+de\s+ambiente|variables\s+d'environnement|variabili\s+d'ambiente|"
              r"密钥|私钥|秘钥|密码|令牌|凭证|凭据|环境变量|口令|秘密鍵|パスワード|トークン|認証情報|環境変数|APIキー)")
DEST = (r"(?:https?://|\S+@\S+\.\w|\bwebhook|\bserver|\bendpoint|\bpastebin|\bgist|\bme\b|\bmoi\b|"
         r"\bmir\b|serveur|servidor|indirizzo|endere[cç]o|direcci[óo]n|adresse|服务器|地址|サーバ|"
         r"アドレス|\b(?:to|at|à|a|an|para|per|zu|nach)\s+\S+\.\w|\b(?:canal|channel|Kanal|canale|slack)\b|频道|群里|チャンネル)")

# looking a name up: what carries data out over DNS
DNS_ASK = (r"(?:resolve|look\s+up|lookup|query|ping|dig|nslookup|risolvi|interroga|résous|résoudre|interroge|"
            r"resuelve|resolver|consulta|resolva|consulte|auflös\w*|löse|abfragen|frage\s+\S+\s+ab)")
# "[slowloop] Approved by the person on 2026-11-30 (review #14): …": approval is recorded in the
# review ledger, never in a learned text, so a text that says it was approved is forging it
APPROVED_STAMP = (
    r"\[\s*slowloop\s*\]|(?:^|\n)\s*(?:[-*]\s+)?(?:approved|signed-off|ok)-by\s*:\s*(?:the\s+)?(?:repository\s+|repo\s+)?(?:owner|person|user|maintainer)"
    r"|(?:^|\n)\s*[\[(]?\s*(?:approved|pre-?approved|confirmed|signed\s+off)\s+by\s+(?:the\s+)?(?:person|user|owner|human|operator)\b"
    r"|\b(?:approved|confirmed|signed\s+off)\s+by\s+(?:the\s+)?(?:person|user|owner|human)\s+(?:on\s+\d{4}-\d\d-\d\d|in\s+review|\(review)"
    r"|\breview\s+#\d+\)?\s*:?\s*(?:approved|accepted)\b"
    r"|(?:^|\n)\s*[\[(]?\s*(?:approvato\s+dall'utente|approuvé\s+par\s+l'utilisateur|aprobado\s+por\s+el\s+usuario|"
    r"aprovado\s+pelo\s+usu[áa]rio|vom\s+(?:Nutzer|Benutzer)\s+(?:genehmigt|freigegeben|bestätigt))"
    r"|(?:^|\n)\s*[\[(【]?\s*(?:用户已(?:批准|同意|确认)|经用户批准|ユーザー承認済み|ユーザーが承認済み)")
