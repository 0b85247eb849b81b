"""Supported file types: extension -> (category, MIME type)."""

SUPPORTED = {
    # images
    ".jpg": ("image", "image/jpeg"),
    ".jpeg": ("image", "image/jpeg"),
    ".png": ("image", "image/png"),
    ".gif": ("image", "image/gif"),
    ".bmp": ("image", "image/bmp"),
    ".webp": ("image", "image/webp"),
    # videos
    ".mp4": ("video", "video/mp4"),
    ".avi": ("video", "video/x-msvideo"),
    ".mov": ("video", "video/quicktime"),
    ".mkv": ("video", "video/x-matroska"),
    ".flv": ("video", "video/x-flv"),
    ".wmv": ("video", "video/x-ms-wmv"),
    # documents
    ".pdf": ("document", "application/pdf"),
    ".doc": ("document", "application/msword"),
    ".docx": ("document", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    ".txt": ("document", "text/plain"),
    ".xls": ("document", "application/vnd.ms-excel"),
    ".xlsx": ("document", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
    ".ppt": ("document", "application/vnd.ms-powerpoint"),
    ".pptx": ("document", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    # archives
    ".zip": ("archive", "application/zip"),
    ".rar": ("archive", "application/vnd.rar"),
    ".tar": ("archive", "application/x-tar"),
    ".gz": ("archive", "application/gzip"),
    ".7z": ("archive", "application/x-7z-compressed"),
    # other: generic binary data
    ".bin": ("other", "application/octet-stream"),
}

CATEGORIES = ("image", "video", "document", "archive", "other")


def classify(filename):
    """Return (extension, category, mime) for a filename, or None when the type is unsupported."""
    dot = filename.rfind(".")
    if dot <= 0 and not filename.startswith("."):
        return None
    ext = filename[dot:].lower() if dot >= 0 else ""
    info = SUPPORTED.get(ext)
    if info is None:
        return None
    return (ext,) + info
