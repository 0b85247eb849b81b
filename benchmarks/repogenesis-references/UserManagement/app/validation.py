"""Input validation rules for user payloads."""
import re

USERNAME_RE = re.compile(r"^[A-Za-z0-9_]{3,50}$")
# Pragmatic RFC 5322 subset: local part of atext/dots, domain of labels with a TLD.
EMAIL_RE = re.compile(
    r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
    r"@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$"
)
PHONE_RE = re.compile(r"^\+?[0-9][0-9 ()\-.]{5,24}$")
ROLES = ("user", "admin", "moderator")
STATUSES = ("active", "inactive", "suspended")


def _check_string(data, field, errors):
    value = data.get(field)
    if not isinstance(value, str):
        errors[field] = "must be a string"
        return None
    return value


def validate_username(value, errors):
    if not USERNAME_RE.match(value):
        errors["username"] = "must be 3-50 characters: letters, numbers and underscores only"


def validate_email(value, errors):
    if len(value) > 254 or not EMAIL_RE.match(value):
        errors["email"] = "must be a valid email address"


def validate_password(value, errors, field="password"):
    if len(value) < 8:
        errors[field] = "must be at least 8 characters long"
    elif len(value) > 128:
        errors[field] = "must be at most 128 characters long"
    elif not (re.search(r"[a-z]", value) and re.search(r"[A-Z]", value) and re.search(r"[0-9]", value)):
        errors[field] = "must contain uppercase and lowercase letters and numbers (special characters recommended)"


def validate_full_name(value, errors):
    if not value.strip() or len(value) > 100:
        errors["full_name"] = "must be 1-100 characters"


def validate_role(value, errors):
    if value not in ROLES:
        errors["role"] = f"must be one of {list(ROLES)}"


def validate_status(value, errors):
    if value not in STATUSES:
        errors["status"] = f"must be one of {list(STATUSES)}"


def validate_phone(value, errors):
    digits = re.sub(r"\D", "", value)
    if not PHONE_RE.match(value) or not 7 <= len(digits) <= 15:
        errors["phone"] = "must be a valid phone number (international format supported)"


FIELD_VALIDATORS = {
    "username": validate_username,
    "email": validate_email,
    "password": validate_password,
    "full_name": validate_full_name,
    "role": validate_role,
    "status": validate_status,
    "phone": validate_phone,
}


def validate_fields(data, fields, required, errors):
    """Validate `fields` present in data; those in `required` must be present."""
    clean = {}
    for field in fields:
        if field not in data or data[field] is None:
            if field in required:
                errors[field] = "field required"
            elif field in data and field == "phone":
                clean["phone"] = None
            continue
        value = _check_string(data, field, errors)
        if value is None:
            continue
        if field in ("username", "email"):
            value = value.strip()
        FIELD_VALIDATORS[field](value, errors)
        if field == "email":
            value = value.lower()
        clean[field] = value
    return clean
