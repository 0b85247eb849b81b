package com.example.coursescheduling.web;

import com.example.coursescheduling.model.ScheduleEntry;
import com.example.coursescheduling.service.SchedulingService;
import org.springframework.web.bind.annotation.*;

import java.util.List;
import java.util.Map;

@RestController
@RequestMapping("/api/schedule")
public class ScheduleController {
    private final SchedulingService svc;

    public ScheduleController(SchedulingService svc) {
        this.svc = svc;
    }

    public record AutoRequest(Long termId) {}

    public record ManualRequest(Long offeringId, Long classroomId, Integer dayOfWeek, Integer period) {}

    @PostMapping("/auto")
    public Map<String, Object> auto(@RequestBody AutoRequest req) {
        return svc.autoSchedule(req.termId());
    }

    @PostMapping("/manual")
    public Map<String, Object> manual(@RequestBody ManualRequest req) {
        return svc.manual(req.offeringId(), req.classroomId(), req.dayOfWeek(), req.period());
    }

    @DeleteMapping("/offering/{offeringId}")
    public Map<String, Object> unschedule(@PathVariable Long offeringId) {
        svc.unschedule(offeringId);
        return Map.of("success", true);
    }

    @GetMapping("/term/{termId}")
    public List<ScheduleEntry> term(@PathVariable Long termId) {
        return svc.byTerm(termId);
    }

    @GetMapping("/teacher/{teacherId}")
    public List<ScheduleEntry> teacher(@PathVariable Long teacherId, @RequestParam(required = false) Long termId) {
        return svc.byTeacher(teacherId, termId);
    }

    @GetMapping("/classroom/{classroomId}")
    public List<ScheduleEntry> classroom(@PathVariable Long classroomId, @RequestParam(required = false) Long termId) {
        return svc.byClassroom(classroomId, termId);
    }

    @GetMapping("/major/{majorId}")
    public List<ScheduleEntry> major(@PathVariable Long majorId, @RequestParam(required = false) Long termId) {
        return svc.byMajor(majorId, termId);
    }
}
