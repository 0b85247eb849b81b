package com.example.coursescheduling.web;

import com.example.coursescheduling.model.*;
import com.example.coursescheduling.service.CatalogService;
import org.springframework.web.bind.annotation.*;

import java.util.List;
import java.util.Map;

import static com.example.coursescheduling.service.CatalogService.deleted;

@RestController
@RequestMapping("/api")
public class CatalogController {
    private final CatalogService svc;

    public CatalogController(CatalogService svc) {
        this.svc = svc;
    }

    @GetMapping("/timeslots")
    public List<TimeSlot> timeSlots() { return TimeSlot.all(); }

    // terms
    @PostMapping("/terms")
    public Term createTerm(@RequestBody Term t) { return svc.createTerm(t); }
    @GetMapping("/terms")
    public List<Term> listTerms() { return svc.listTerms(); }
    @GetMapping("/terms/{id}")
    public Term getTerm(@PathVariable Long id) { return svc.getTerm(id); }
    @PutMapping("/terms/{id}")
    public Term updateTerm(@PathVariable Long id, @RequestBody Term t) { return svc.updateTerm(id, t); }
    @DeleteMapping("/terms/{id}")
    public Map<String, Object> deleteTerm(@PathVariable Long id) { svc.deleteTerm(id); return deleted(id); }

    // classrooms
    @PostMapping("/classrooms")
    public Classroom createClassroom(@RequestBody Classroom c) { return svc.createClassroom(c); }
    @GetMapping("/classrooms")
    public List<Classroom> listClassrooms() { return svc.listClassrooms(); }
    @GetMapping("/classrooms/{id}")
    public Classroom getClassroom(@PathVariable Long id) { return svc.getClassroom(id); }
    @PutMapping("/classrooms/{id}")
    public Classroom updateClassroom(@PathVariable Long id, @RequestBody Classroom c) { return svc.updateClassroom(id, c); }
    @DeleteMapping("/classrooms/{id}")
    public Map<String, Object> deleteClassroom(@PathVariable Long id) { svc.deleteClassroom(id); return deleted(id); }

    // departments
    @PostMapping("/departments")
    public Department createDepartment(@RequestBody Department d) { return svc.createDepartment(d); }
    @GetMapping("/departments")
    public List<Department> listDepartments() { return svc.listDepartments(); }
    @GetMapping("/departments/{id}")
    public Department getDepartment(@PathVariable Long id) { return svc.getDepartment(id); }
    @PutMapping("/departments/{id}")
    public Department updateDepartment(@PathVariable Long id, @RequestBody Department d) { return svc.updateDepartment(id, d); }
    @DeleteMapping("/departments/{id}")
    public Map<String, Object> deleteDepartment(@PathVariable Long id) { svc.deleteDepartment(id); return deleted(id); }

    // majors (student groups)
    @PostMapping("/majors")
    public Major createMajor(@RequestBody Major m) { return svc.createMajor(m); }
    @GetMapping("/majors")
    public List<Major> listMajors() { return svc.listMajors(); }
    @GetMapping("/majors/{id}")
    public Major getMajor(@PathVariable Long id) { return svc.getMajor(id); }
    @PutMapping("/majors/{id}")
    public Major updateMajor(@PathVariable Long id, @RequestBody Major m) { return svc.updateMajor(id, m); }
    @DeleteMapping("/majors/{id}")
    public Map<String, Object> deleteMajor(@PathVariable Long id) { svc.deleteMajor(id); return deleted(id); }

    // teachers
    @PostMapping("/teachers")
    public Teacher createTeacher(@RequestBody Teacher t) { return svc.createTeacher(t); }
    @GetMapping("/teachers")
    public List<Teacher> listTeachers() { return svc.listTeachers(); }
    @GetMapping("/teachers/{id}")
    public Teacher getTeacher(@PathVariable Long id) { return svc.getTeacher(id); }
    @PutMapping("/teachers/{id}")
    public Teacher updateTeacher(@PathVariable Long id, @RequestBody Teacher t) { return svc.updateTeacher(id, t); }
    @DeleteMapping("/teachers/{id}")
    public Map<String, Object> deleteTeacher(@PathVariable Long id) { svc.deleteTeacher(id); return deleted(id); }

    // courses
    @PostMapping("/courses")
    public Course createCourse(@RequestBody Course c) { return svc.createCourse(c); }
    @GetMapping("/courses")
    public List<Course> listCourses() { return svc.listCourses(); }
    @GetMapping("/courses/{id}")
    public Course getCourse(@PathVariable Long id) { return svc.getCourse(id); }
    @PutMapping("/courses/{id}")
    public Course updateCourse(@PathVariable Long id, @RequestBody Course c) { return svc.updateCourse(id, c); }
    @DeleteMapping("/courses/{id}")
    public Map<String, Object> deleteCourse(@PathVariable Long id) { svc.deleteCourse(id); return deleted(id); }

    // offerings
    @PostMapping("/offerings")
    public Offering createOffering(@RequestBody Offering o) { return svc.createOffering(o); }
    @GetMapping("/offerings")
    public List<Offering> listOfferings(@RequestParam(required = false) Long termId) { return svc.listOfferings(termId); }
    @GetMapping("/offerings/{id}")
    public Offering getOffering(@PathVariable Long id) { return svc.getOffering(id); }
    @PutMapping("/offerings/{id}")
    public Offering updateOffering(@PathVariable Long id, @RequestBody Offering o) { return svc.updateOffering(id, o); }
    @DeleteMapping("/offerings/{id}")
    public Map<String, Object> deleteOffering(@PathVariable Long id) { svc.deleteOffering(id); return deleted(id); }

    // constraints
    @PostMapping("/constraints")
    public SchedulingConstraint createConstraint(@RequestBody SchedulingConstraint c) { return svc.createConstraint(c); }
    @GetMapping("/constraints")
    public List<SchedulingConstraint> listConstraints(@RequestParam(required = false) Long teacherId) {
        return svc.listConstraints(teacherId);
    }
    @GetMapping("/constraints/{id}")
    public SchedulingConstraint getConstraint(@PathVariable Long id) { return svc.getConstraint(id); }
    @DeleteMapping("/constraints/{id}")
    public Map<String, Object> deleteConstraint(@PathVariable Long id) { svc.deleteConstraint(id); return deleted(id); }
}
