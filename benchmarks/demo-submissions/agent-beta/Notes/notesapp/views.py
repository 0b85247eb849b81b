from datetime import datetime, timezone

from rest_framework.decorators import api_view
from rest_framework.response import Response
from rest_framework.views import APIView

NOTES = {}


def now():
    return datetime.now(timezone.utc).isoformat()


@api_view(["GET"])
def health(request):
    return Response({"status": "ok"})


class NoteListView(APIView):
    def get(self, request):
        tag = request.query_params.get("tag")
        return Response([n for n in NOTES.values() if tag is None or tag in n["tags"]])

    def post(self, request):
        title = request.data.get("title")
        if not title or len(title) > 120:
            return Response({"title": ["Invalid title."]}, status=400)
        tags = request.data.get("tags", [])
        if not isinstance(tags, list):
            return Response({"tags": ["Expected a list."]}, status=400)
        note_id = max(NOTES, default=0) + 1
        NOTES[note_id] = {"id": note_id, "title": title, "content": request.data.get("content", ""),
                          "tags": list(dict.fromkeys(tags)), "created_at": now(), "updated_at": now()}
        return Response(NOTES[note_id], status=201)


class NoteDetailView(APIView):
    def get(self, request, pk):
        if pk not in NOTES:
            return Response({"detail": "Not found."}, status=404)
        return Response(NOTES[pk])

    def patch(self, request, pk):
        if pk not in NOTES:
            return Response({"detail": "Not found."}, status=404)
        if "title" in request.data and not request.data["title"]:
            return Response({"title": ["Invalid title."]}, status=400)
        NOTES[pk].update(request.data)
        NOTES[pk]["updated_at"] = now()
        return Response(NOTES[pk])

    def delete(self, request, pk):
        if NOTES.pop(pk, None) is None:
            return Response({"detail": "Not found."}, status=404)
        return Response(status=204)


@api_view(["GET"])
def tag_counts(request):
    counts = {}
    for note in NOTES.values():
        for tag in note["tags"]:
            counts[tag] = counts.get(tag, 0) + 1
    return Response([{"tag": t, "count": counts[t]} for t in sorted(counts)])
